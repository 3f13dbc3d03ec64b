import { amqpKeys, commonKeys, ConfigError, loadConfig, mongoKeys } from '@ecomm-sync/config';
import { connectDatabase } from '@ecomm-sync/data-access';
import { onShutdown, startHealthServer } from '@ecomm-sync/http';
import { createLogger } from '@ecomm-sync/logger';
import { Broker } from '@ecomm-sync/messaging';

/**
 * Signed outbound webhook POSTs with retries live here; for now the
 * service starts, connects to its dependencies and answers its health checks (issue 6 adds the work).
 */
async function main() {
  const config = loadConfig({
    ...commonKeys,
    ...mongoKeys,
    ...amqpKeys,
    WEBHOOK_DISPATCHER_HEALTH_PORT: { doc: 'port of the health endpoints', format: 'port', default: 3204 },
  });
  const logger = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
  const broker = await Broker.connect({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    prefetch: config.AMQP_PREFETCH,
    retryDelayMs: config.AMQP_RETRY_DELAY_MS,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    logger,
  });
  const health = await startHealthServer(config.WEBHOOK_DISPATCHER_HEALTH_PORT, { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() });
  logger.info('webhook-dispatcher ready', { healthPort: config.WEBHOOK_DISPATCHER_HEALTH_PORT });
  onShutdown(logger, async () => {
    await broker.close();
    await new Promise((resolve) => health.close(resolve));
    await database.close();
  });
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
