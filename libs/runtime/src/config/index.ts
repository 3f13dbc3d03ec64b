export { loadConfig, ConfigError } from './load-config';
export type { ConfigSchema, ConfigKey, ConfigOf } from './load-config';
export { commonKeys, mongoKeys, amqpKeys, secretsRotationKeys, crmRequestLogKeys, intakePaceKeys } from './common-keys';
export { weakSecretReason, MIN_PRODUCTION_SECRET_LENGTH } from './secret-strength';
export { renderConfigReference } from './config-reference';
export type { ServiceSchema } from './config-reference';
