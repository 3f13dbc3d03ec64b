import { amqpKeys, commonKeys, loadConfig, mongoKeys, type ConfigSchema } from '@ecomm-sync/runtime';

export const mapperConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  MAPPER_HEALTH_PORT: { doc: 'port of the mapper health endpoints (/healthz, /readyz)', format: 'port', default: 3201 },
  REAPPLY_PAGE_SIZE: { doc: 'stored objects re-mapped at a time after a settings change (bounds memory)', format: 'int', default: 500 },
  REAPPLY_PAGES_PER_CHUNK: { doc: 'pages per re-apply message before the job continues in the next', format: 'int', default: 20 },
} as const satisfies ConfigSchema;

export const loadMapperConfig = () => loadConfig(mapperConfigSchema);
