import { amqpKeys, commonKeys, loadConfig, mongoKeys } from '@ecomm-sync/config';
import { runService } from '@ecomm-sync/service-runtime';

/**
 * The import state machine (SPEC.md "Import (v1, application mode)") lives here; for now the service starts, connects to its dependencies and answers its health checks
 * (the bulk import is its own piece of work).
 */
runService({
  name: 'import-coordinator',
  loadConfig: () =>
    loadConfig({
      ...commonKeys,
      ...mongoKeys,
      ...amqpKeys,
      IMPORT_COORDINATOR_HEALTH_PORT: { doc: 'port of the health endpoints (/healthz, /readyz)', format: 'port', default: 3203 },
    }),
  healthPort: (config) => config.IMPORT_COORDINATOR_HEALTH_PORT,
  start: async () => undefined,
});
