import { IMPORT_SETTINGS_IDS, OBJECT_TYPES, type ObjectType, type SyncBatchMessage, TOPICS } from '@ecomm-sync/contracts';
import { connectDatabase, type Database, SendingPortals } from '@ecomm-sync/data-access';
import { receivedCounts, type ImportEvent } from '@ecomm-sync/domain';
import { aNewImport, anImportTypeState, aPortalId, FakeBroker, moveImport, recordingLogger, testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { CoordinateImportsUseCase } from './use-cases/coordinate-imports.use-case';
import { ReleasePace } from './use-cases/release-pace';

const NOW = 1_800_000_000_000;

/**
 * Decision 49 on the real MongoDB-wire server: the coordinator writes an import by compare-and-set
 * while gateways count its pages, and of two releasers at once one claims the release; no write is lost.
 */
describe('the import-coordinator on the real repository', () => {
  let database: Database;
  let broker: FakeBroker;
  let coordinator: CoordinateImportsUseCase;

  beforeAll(async () => {
    database = await connectDatabase(testInfrastructure().mongoUrl, uniqueName('test-import-coordinator').replace(/-/g, '_'));
  });
  beforeEach(() => {
    broker = new FakeBroker();
    coordinator = new CoordinateImportsUseCase(database.repositories, broker, recordingLogger().logger, { clock: () => NOW });
  });
  afterAll(async () => {
    await database?.connection.dropDatabase();
    await database?.close();
  });

  const imports = () => database.repositories.imports;
  /** A page stored and counted, as a gateway does it. */
  const receivePage = async (importId: string, objectType: ObjectType, pageNumber: number, count: number) => {
    const messages = Array.from({ length: count }, (_, i) => ({ externalObjectId: `${objectType}-${pageNumber}-${i}`, properties: { n: i } }));
    await imports().putPage(importId, objectType, pageNumber, messages);
    await moveImport(imports(), importId, { kind: 'page-received', objectType, pageNumber, itemCount: count });
  };

  it('when the webhook answer is recorded while gateways count pages of the import, then the expected counts and every page are kept', async () => {
    const { importId } = (await imports().create(aNewImport()))!;
    const answer = { importCounts: OBJECT_TYPES.map((type) => ({ settingsId: IMPORT_SETTINGS_IDS[type], count: 40 })) };

    await Promise.all([
      ...Array.from({ length: 10 }, (_, page) => receivePage(importId, 'CONTACT', page, 4)),
      coordinator.handle({ kind: 'webhook-completed', requestId: importId, ok: true, status: 200, body: answer }),
    ]);

    const found = (await imports().findById(importId))!;
    expect(found.status).toBe('receiving');
    expect(found.types.CONTACT).toMatchObject({ expectedCount: 40 });
    expect(receivedCounts(found.types.CONTACT!)).toEqual({ pageCount: 10, itemCount: 40 });
  });

  it('when one replica’s completion event and another’s periodic check release one import at once, then one of them claims it: it is released and every page went out once', async () => {
    const { importId } = (await imports().create(aNewImport({ types: { PRODUCT: anImportTypeState('PRODUCT') } })))!;
    for (let page = 1; page <= 30; page++) await receivePage(importId, 'PRODUCT', page, 1);
    const end: ImportEvent = { kind: 'end-received', objectType: 'PRODUCT', pageCount: 30, itemCount: 30, at: NOW - 10_000 };
    await moveImport(imports(), importId, end);

    const other = new CoordinateImportsUseCase(database.repositories, broker, recordingLogger().logger, { clock: () => NOW });
    await Promise.all([coordinator.handle({ kind: 'import-completed', importId }), other.releaseUnfinished(1_000)]);
    await Promise.all([coordinator.settled(), other.settled()]);

    expect(await imports().findById(importId)).toMatchObject({ releasedThrough: 'LINE_ITEM:done', releasedAt: NOW });
    const batchIds = broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.PRODUCT`).map((batch) => batch.batchId);
    expect(batchIds).toEqual(Array.from({ length: 30 }, (_, i) => `import:${importId}:PRODUCT:${i + 1}`));
  });

  it('when a release progressed more recently than the periodic check looks back, then the check leaves it to its releaser; later, it takes it over', async () => {
    const { importId } = (await imports().create(aNewImport({ types: { PRODUCT: anImportTypeState('PRODUCT') } })))!;
    await receivePage(importId, 'PRODUCT', 1, 1);
    await receivePage(importId, 'PRODUCT', 2, 1);
    await moveImport(imports(), importId, { kind: 'end-received', objectType: 'PRODUCT', pageCount: 2, itemCount: 2, at: NOW - 10_000 });
    await moveImport(
      imports(),
      importId,
      { kind: 'release-claimed', at: NOW - 500, staleBefore: NOW - 5_000, owner: 'earlier' },
      { kind: 'release-progressed', through: 'PRODUCT:1', done: false, at: NOW - 500, owner: 'earlier' },
    );

    await coordinator.releaseUnfinished(1_000);
    await coordinator.settled();
    expect(broker.published).toEqual([]);

    await coordinator.releaseUnfinished(100);
    await coordinator.settled();
    expect(broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.PRODUCT`).map((batch) => batch.batchId)).toEqual([`import:${importId}:PRODUCT:2`]);
    expect(await imports().findById(importId)).toMatchObject({ releasedAt: NOW });
  });

  it('when an import is released, then it takes its portal’s intake pace as stored for every replica, page by page', async () => {
    const record = (await imports().create(aNewImport({ types: { PRODUCT: anImportTypeState('PRODUCT') } })))!;
    for (let page = 1; page <= 3; page++) await receivePage(record.importId, 'PRODUCT', page, 2);
    await moveImport(imports(), record.importId, { kind: 'end-received', objectType: 'PRODUCT', pageCount: 3, itemCount: 6, at: NOW - 10_000 });
    const waits: number[] = [];
    // 2 objects a second, 2 at once: 6 objects take the portal's pace 3 s ahead, the first 1 s of it free.
    const pace = new ReleasePace({ objectsPerSecond: 2, burstObjects: 2, maxWaitMs: 10_000 }, database.repositories.intakePaces, {
      clock: () => NOW,
      wait: async (ms) => void waits.push(ms),
    });
    const paced = new CoordinateImportsUseCase(database.repositories, broker, recordingLogger().logger, { clock: () => NOW, pace });

    await paced.handle({ kind: 'import-completed', importId: record.importId });
    await paced.settled();

    expect(waits).toEqual([1000, 2000]);
    expect(await database.repositories.intakePaces.find(record.tenant.portalId)).toBe(NOW + 3000);
    expect(broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.PRODUCT`)).toHaveLength(3);
  });

  it('when another portal’s batch was taken in by a gateway meanwhile, then the import is released at the shared rate', async () => {
    const record = (await imports().create(aNewImport({ types: { PRODUCT: anImportTypeState('PRODUCT') } })))!;
    for (let page = 1; page <= 3; page++) await receivePage(record.importId, 'PRODUCT', page, 2);
    await moveImport(imports(), record.importId, { kind: 'end-received', objectType: 'PRODUCT', pageCount: 3, itemCount: 6, at: NOW - 10_000 });
    const paces = database.repositories.intakePaces;
    await database.connection.collection('intake_paces').deleteMany({}); // no portal sending yet: a pace left by another test would count
    const sending = new SendingPortals(paces, { clock: () => NOW });
    await sending.read();
    expect(sending.othersSending(record.tenant.portalId)).toBe(false);
    // Another portal's sync batch, as a gateway replica takes it: its due is what the import-coordinator reads.
    await paces.take(aPortalId(), 10, NOW, { latestDue: NOW + 10_000, plausibleUntil: NOW + 70_000 });
    await sending.read();
    const waits: number[] = [];
    // 2 objects a second alone, 1 beside others, 2 at once: 6 objects take the pace 6 s ahead, the first 2 s of it free.
    const pace = new ReleasePace({ objectsPerSecond: 2, sharedObjectsPerSecond: 1, burstObjects: 2, maxWaitMs: 10_000 }, paces, {
      clock: () => NOW,
      wait: async (ms) => void waits.push(ms),
      sending,
    });
    const paced = new CoordinateImportsUseCase(database.repositories, broker, recordingLogger().logger, { clock: () => NOW, pace });

    await paced.handle({ kind: 'import-completed', importId: record.importId });
    await paced.settled();

    expect(waits).toEqual([2000, 4000]);
    expect(await paces.find(record.tenant.portalId)).toBe(NOW + 6000);
    expect(broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.PRODUCT`)).toHaveLength(3);
  });
});
