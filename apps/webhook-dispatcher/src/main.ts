import { amqpKeys, commonKeys, loadConfig, mongoKeys } from '@ecomm-sync/config';
import { runService } from '@ecomm-sync/service-runtime';

/**
 * Signed outbound webhook POSTs with retries live here; for now the service starts, connects to its dependencies and answers its health checks
 * (the bulk import is its own piece of work).
 */
runService({
  name: 'webhook-dispatcher',
  loadConfig: () =>
    loadConfig({
      ...commonKeys,
      ...mongoKeys,
      ...amqpKeys,
      WEBHOOK_DISPATCHER_HEALTH_PORT: { doc: 'port of the health endpoints (/healthz, /readyz)', format: 'port', default: 3204 },
    }),
  healthPort: (config) => config.WEBHOOK_DISPATCHER_HEALTH_PORT,
  start: async () => undefined,
});
