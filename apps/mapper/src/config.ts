import { amqpKeys, commonKeys, loadConfig, mongoKeys, type ConfigSchema } from '@ecomm-sync/config';

export const mapperConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  MAPPER_HEALTH_PORT: { doc: 'port of the mapper health endpoints (/healthz, /readyz)', format: 'port', default: 3201 },
} as const satisfies ConfigSchema;

export const loadMapperConfig = () => loadConfig(mapperConfigSchema);
