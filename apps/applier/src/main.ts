import { lookupsChangeOf, TOPICS, type RefreshObjectsMessage } from '@ecomm-sync/contracts';
import { CrmConnections, HttpCrmClient, MongoCrmBudgets, startCrmRequestLog } from '@ecomm-sync/crm-client';
import { SecretBox } from '@ecomm-sync/data-access';
import { runPeriodically, runService } from '@ecomm-sync/service-runtime';
import { loadApplierConfig } from './config';
import { startMappedChangesConsumer } from './entry-points/mapped-changes.consumer';
import { ApplyMappedChangesUseCase, type RequestRefresh } from './use-cases/apply-mapped-changes.use-case';
import { CrmDirectory } from './use-cases/crm-directory';
import { CrmWaits } from './use-cases/crm-waits';
import { RecordSetAsideUseCase } from './use-cases/record-set-aside.use-case';
import { ResumeCrmWorkUseCase } from './use-cases/resume-crm-work.use-case';
import { SweepAbandonedCheckoutsUseCase } from './use-cases/sweep-abandoned-checkouts.use-case';

runService({
  name: 'applier',
  loadConfig: loadApplierConfig,
  healthPort: (config) => config.APPLIER_HEALTH_PORT,
  start: async ({ config, logger, database, broker, onStop, onDrained }) => {
    const budgets = new MongoCrmBudgets(database.connection);
    const requestLog = startCrmRequestLog(config, { database, logger, onDrained });
    const connections = new CrmConnections({
      portals: database.repositories.portals,
      secretBox: SecretBox.fromConfig(config),
      builtinBaseUrl: config.CRM_BASE_URL,
      timeoutMs: config.CRM_TIMEOUT_MS,
      maxWaitMs: config.CRM_MAX_WAIT_MS,
      budgetFor: (accountKey, limits, kind) => budgets.for(accountKey, limits, kind),
      refreshMarginMs: config.CRM_TOKEN_REFRESH_MARGIN_MS,
      chunksAtOnce: config.CRM_CHUNKS_AT_ONCE,
      createClient: (spec) => new HttpCrmClient({ ...spec, requestLog }),
      logger,
    });
    const crm = new CrmDirectory(connections, { propertyCacheMs: config.CRM_PROPERTY_CACHE_MS, shared: database.repositories.crmPropertyNames });
    const refresh: RequestRefresh = ({ tenant, storeId, objectType }, externalObjectIds) =>
      broker.publish(TOPICS.refreshObjects, { kind: 'refresh-objects', tenant, storeId, objectType, externalObjectIds } satisfies RefreshObjectsMessage);
    const waits = new CrmWaits(database.repositories, Date.now);
    const apply = new ApplyMappedChangesUseCase({
      repositories: database.repositories,
      crm,
      logger,
      waits,
      waitWindowMs: config.APPLIER_WAIT_WINDOW_MS,
      requestRefresh: refresh,
    });
    // A tenant's install or stores changed: its install goes, and its portal's document and CRM client when the
    // install set the portal's CRM up. An install's deleted tokens: nothing (the applier caches no credentials).
    // Anything else: everything.
    const forget = (message?: unknown) => {
      const change = lookupsChangeOf(message);
      if (change && 'tokensOf' in change) return;
      if (change) {
        apply.forgetTenant(change.tenant, { portal: change.crmSetUp });
        if (change.crmSetUp) crm.forget(change.tenant.portalId);
        return;
      }
      apply.forgetPortals();
      crm.forget();
    };
    await broker.subscribeAll(TOPICS.lookupsChanged, forget, () => forget());
    await startMappedChangesConsumer(
      broker,
      { applyMappedChanges: apply, recordSetAside: new RecordSetAsideUseCase(database.repositories, logger) },
      { maxBatch: config.APPLIER_BATCH_SIZE, windowMs: config.APPLIER_BATCH_WINDOW_MS },
    );
    const stopRetrying = runPeriodically(
      config.APPLIER_WAIT_RETRY_INTERVAL_MS,
      () => apply.retryWaiting(),
      (error) => logger.warn('retrying waiting changes failed', { error: String(error) }),
    );
    const resumer = new ResumeCrmWorkUseCase({
      repositories: database.repositories,
      apply,
      waits,
      logger,
      options: { pageSize: config.APPLIER_RESUME_PAGE_SIZE, patienceMs: config.APPLIER_RESUME_PATIENCE_MS },
    });
    const stopResuming = runPeriodically(
      config.APPLIER_RESUME_INTERVAL_MS,
      () => resumer.start(),
      (error) => logger.warn('resuming parked CRM work failed; tried again at the next interval', { error: String(error) }),
    );
    const sweeper = new SweepAbandonedCheckoutsUseCase(database.repositories, crm, logger, {
      abandonAfterMs: config.ABANDON_AFTER_MS,
      batchSize: config.ABANDON_SWEEP_BATCH,
      leaseMs: Math.max(30_000, 3 * config.ABANDON_SWEEP_INTERVAL_MS),
    });
    const stopSweeping = runPeriodically(
      config.ABANDON_SWEEP_INTERVAL_MS,
      () => sweeper.run(),
      (error) => logger.warn('the abandoned-checkout sweep failed; it runs again at the next interval', { error: String(error) }),
    );
    // On SIGTERM: let a running sweep finish its batch, then hand the lease back at once, so that
    // another replica (or this one restarted) sweeps at its next interval instead of after the lease ran out.
    onStop(async () => {
      await Promise.all([stopRetrying(), stopResuming().then(() => resumer.settled()), sweeper.stop().then(stopSweeping)]);
      logger.info('abandoned-checkout sweep lease released');
    });
  },
});
