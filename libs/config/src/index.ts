export { loadConfig, ConfigError } from './load-config';
export type { ConfigSchema, ConfigKey, ConfigOf } from './load-config';
export { commonKeys, mongoKeys, amqpKeys } from './common-keys';
