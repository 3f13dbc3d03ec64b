import { createValidator, importEventMessageSchema, type ImportEventMessage } from '@ecomm-sync/contracts';
import { servicesSendingPortals } from '@ecomm-sync/data-access';
import { runPeriodically, runService } from '@ecomm-sync/service-runtime';
import { loadImportCoordinatorConfig } from './config';
import { observeReleaseBacklog } from './release-metrics';
import { CoordinateImportsUseCase } from './use-cases/coordinate-imports.use-case';
import { ReleasePace } from './use-cases/release-pace';

const validateEvent = createValidator(importEventMessageSchema, 'message');

/**
 * The import state machine (SPEC.md "Import (v1, application mode)"): webhook requests, answers,
 * and the release of complete imports, paced per portal (decision 57). Failure policy: a message
 * that fails its schema is dead-lettered at once; other failures are retried (every step is idempotent).
 */
runService({
  name: 'import-coordinator',
  loadConfig: loadImportCoordinatorConfig,
  healthPort: (config) => config.IMPORT_COORDINATOR_HEALTH_PORT,
  start: async ({ config, logger, database, broker, onStop }) => {
    // Who is sending, as every gateway and import-coordinator replica's takes leave it in the paces.
    const sending = servicesSendingPortals(database.repositories.intakePaces, database.clock.now, logger);
    const pace = new ReleasePace(
      {
        objectsPerSecond: config.INTAKE_OBJECTS_PER_SECOND,
        burstObjects: config.INTAKE_BURST_OBJECTS,
        maxWaitMs: config.INTAKE_MAX_WAIT_MS,
        sharedObjectsPerSecond: config.INTAKE_SHARED_OBJECTS_PER_SECOND,
      },
      database.repositories.intakePaces,
      { logger, clock: database.clock.now, sending },
    );
    // Paces and release claims are times every replica compares: the database server's clock.
    const coordinator = new CoordinateImportsUseCase(database.repositories, broker, logger, {
      sharedClock: database.clock.now,
      pace,
      lookBackMs: config.IMPORT_RELEASE_CHECK_INTERVAL_MS,
      releasesAtOnce: config.IMPORT_RELEASES_AT_ONCE,
      observeBacklog: observeReleaseBacklog,
    });
    await broker.consume<ImportEventMessage>('import-coordinator.events', ({ body }) => coordinator.handle(body), validateEvent);
    const stopChecking = runPeriodically(
      config.IMPORT_RELEASE_CHECK_INTERVAL_MS,
      () => coordinator.releaseUnfinished(config.IMPORT_RELEASE_CHECK_INTERVAL_MS),
      (error) => logger.warn('releasing unfinished imports failed', { error: String(error) }),
    );
    onStop(stopChecking); // the check in progress ends before the broker closes
    // First (stops run last registered first): a release waiting for its portal's pace ends where it
    // is, and the next replica's check resumes it once this one's hold is older than its look-back.
    onStop(() => coordinator.stop());
  },
});
