import { ConfigError } from '@ecomm-sync/config';
import { connectDatabase } from '@ecomm-sync/data-access';
import { onShutdown, startHealthServer } from '@ecomm-sync/http';
import { createLogger } from '@ecomm-sync/logger';
import { Broker } from '@ecomm-sync/messaging';
import { loadApplierConfig } from './config';
import { startMappedChangesConsumer } from './entry-points/mapped-changes.consumer';
import { ApplyMappedChangesUseCase } from './use-cases/apply-mapped-changes.use-case';
import { CrmDirectory } from './use-cases/crm-directory';

async function main() {
  const config = loadApplierConfig();
  const logger = createLogger('applier', config.LOG_LEVEL);
  const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
  const broker = await Broker.connect({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    prefetch: config.AMQP_PREFETCH,
    retryDelayMs: config.AMQP_RETRY_DELAY_MS,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    logger,
  });
  const health = await startHealthServer(config.APPLIER_HEALTH_PORT, { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() });
  const crm = new CrmDirectory({ baseUrl: config.CRM_BASE_URL, timeoutMs: config.CRM_TIMEOUT_MS, propertyCacheMs: config.CRM_PROPERTY_CACHE_MS });
  await startMappedChangesConsumer(broker, new ApplyMappedChangesUseCase(database.repositories, crm, logger), {
    maxBatch: config.APPLIER_BATCH_SIZE,
    windowMs: config.APPLIER_BATCH_WINDOW_MS,
  });
  logger.info('applier consuming', { healthPort: config.APPLIER_HEALTH_PORT });
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
