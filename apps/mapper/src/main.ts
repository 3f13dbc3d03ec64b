import { runService } from '@ecomm-sync/service-runtime';
import { loadMapperConfig } from './config';
import { startSettingsWorkConsumer } from './entry-points/settings-work.consumer';
import { startSyncBatchConsumer } from './entry-points/sync-batch.consumer';
import { ProcessSyncBatchUseCase } from './use-cases/process-sync-batch.use-case';
import { RecordSetAsideUseCase } from './use-cases/record-set-aside.use-case';
import { CatchUpPortalUseCase } from './use-cases/catch-up-portal.use-case';
import { ReapplySettingsUseCase } from './use-cases/reapply-settings.use-case';
import { RefreshObjectsUseCase } from './use-cases/refresh-objects.use-case';

runService({
  name: 'mapper',
  loadConfig: loadMapperConfig,
  healthPort: (config) => config.MAPPER_HEALTH_PORT,
  start: async ({ config, logger, database, broker }) => {
    await startSyncBatchConsumer(broker, {
      processSyncBatch: new ProcessSyncBatchUseCase(database.repositories, broker),
      recordSetAside: new RecordSetAsideUseCase(database.repositories, logger),
    });
    await startSettingsWorkConsumer(broker, {
      reapply: new ReapplySettingsUseCase(database.repositories, broker, logger, {
        pageSize: config.REAPPLY_PAGE_SIZE,
        pagesPerChunk: config.REAPPLY_PAGES_PER_CHUNK,
        changesPerMessage: 200,
      }),
      catchUp: new CatchUpPortalUseCase(database.repositories, broker, logger, { pageSize: config.REAPPLY_PAGE_SIZE, changesPerMessage: 200 }),
      refresh: new RefreshObjectsUseCase(database.repositories, broker, logger, { changesPerMessage: 200 }),
    });
  },
});
