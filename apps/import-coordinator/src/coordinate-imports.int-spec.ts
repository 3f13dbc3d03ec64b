import { IMPORT_SETTINGS_IDS, OBJECT_TYPES, type ObjectType, type SyncBatchMessage, TOPICS } from '@ecomm-sync/contracts';
import { connectDatabase, type Database } from '@ecomm-sync/data-access';
import { receivedCounts, type ImportEvent } from '@ecomm-sync/domain';
import { aNewImport, anImportTypeState, FakeBroker, moveImport, recordingLogger, testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { CoordinateImportsUseCase } from './use-cases/coordinate-imports.use-case';

const NOW = 1_800_000_000_000;

/**
 * Decision 49 on the real MongoDB-wire server: the coordinator writes an import by compare-and-set
 * while gateways count its pages, and two releasers may run at once; no write is lost.
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
    coordinator = new CoordinateImportsUseCase(database.repositories, broker, recordingLogger().logger, () => NOW);
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

  it('when the completion event and the periodic check release one import at once, then it is released and every page went out under its batch id', async () => {
    const { importId } = (await imports().create(aNewImport({ types: { PRODUCT: anImportTypeState('PRODUCT') } })))!;
    for (let page = 1; page <= 30; page++) await receivePage(importId, 'PRODUCT', page, 1);
    const end: ImportEvent = { kind: 'end-received', objectType: 'PRODUCT', pageCount: 30, itemCount: 30, at: NOW - 10_000 };
    await moveImport(imports(), importId, end);

    await Promise.all([coordinator.handle({ kind: 'import-completed', importId }), coordinator.releaseUnfinished(1_000)]);

    expect(await imports().findById(importId)).toMatchObject({ releasedThrough: 'LINE_ITEM:done', releasedAt: NOW });
    const batchIds = new Set(broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.PRODUCT`).map((batch) => batch.batchId));
    expect(batchIds).toEqual(new Set(Array.from({ length: 30 }, (_, i) => `import:${importId}:PRODUCT:${i + 1}`)));
  });
});
