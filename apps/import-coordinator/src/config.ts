import { amqpKeys, commonKeys, intakePaceKeys, loadConfig, mongoKeys, type ConfigSchema } from '@ecomm-sync/runtime';

export const importCoordinatorConfigSchema = {
  ...commonKeys,
  ...mongoKeys,
  ...amqpKeys,
  ...intakePaceKeys,
  IMPORT_COORDINATOR_HEALTH_PORT: { doc: 'port of the health endpoints (/healthz, /readyz)', format: 'port', default: 3203 },
  IMPORT_RELEASE_CHECK_INTERVAL_MS: {
    doc: 'how often complete imports whose release did not finish (a lost event, a crash, a stop) are released again, and how long a release may go without progress before another releaser takes it over',
    format: 'int',
    default: 30000,
  },
  IMPORT_RELEASES_AT_ONCE: {
    doc: "imports a replica releases at once (one per portal); each holds up to five pages of up to 4 MB in memory, so raise it with the replica's memory",
    format: 'int',
    default: 6,
    atLeast: 1,
  },
} as const satisfies ConfigSchema;

export const loadImportCoordinatorConfig = () => loadConfig(importCoordinatorConfigSchema);
