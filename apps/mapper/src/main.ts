import { ConfigError } from '@ecomm-sync/config';
import { connectDatabase } from '@ecomm-sync/data-access';
import { onShutdown, startHealthServer } from '@ecomm-sync/http';
import { createLogger } from '@ecomm-sync/logger';
import { Broker } from '@ecomm-sync/messaging';
import { loadMapperConfig } from './config';
import { startSyncBatchConsumer } from './entry-points/sync-batch.consumer';
import { startSettingsWorkConsumer } from './entry-points/settings-work.consumer';
import { ProcessSyncBatchUseCase } from './use-cases/process-sync-batch.use-case';
import { ReapplySettingsUseCase } from './use-cases/reapply-settings.use-case';

async function main() {
  const config = loadMapperConfig();
  const logger = createLogger('mapper', config.LOG_LEVEL);
  const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
  const broker = await Broker.connect({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    prefetch: config.AMQP_PREFETCH,
    retryDelayMs: config.AMQP_RETRY_DELAY_MS,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    logger,
  });
  const health = await startHealthServer(config.MAPPER_HEALTH_PORT, { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() });
  await startSyncBatchConsumer(broker, new ProcessSyncBatchUseCase(database.repositories, broker));
  await startSettingsWorkConsumer(
    broker,
    new ReapplySettingsUseCase(database.repositories, broker, logger, {
      pageSize: config.REAPPLY_PAGE_SIZE,
      pagesPerChunk: config.REAPPLY_PAGES_PER_CHUNK,
      changesPerMessage: 200,
    }),
  );
  logger.info('mapper consuming', { healthPort: config.MAPPER_HEALTH_PORT });
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
