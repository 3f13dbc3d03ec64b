import {
  IMPORT_SETTINGS_IDS,
  type ImportEventMessage,
  OBJECT_TYPES,
  type ObjectType,
  type SyncBatchMessage,
  TOPICS,
  type WebhookRequestMessage,
} from '@ecomm-sync/contracts';
import type { ImportItem, ImportRecord, ImportTypeState } from '@ecomm-sync/data-access';
import {
  aNewImport,
  anAppTenant,
  anImportTypeState,
  asRepositories,
  deferred,
  FakeBroker,
  FakeImportRepository,
  FakeIntakePaceRepository,
  moveImport,
  recordingLogger,
  waitFor,
} from '@ecomm-sync/testing';
import { receivedCounts, type ImportEvent } from '@ecomm-sync/domain';
import { CoordinateImportsUseCase, type ReleaseBacklog } from './coordinate-imports.use-case';
import { ReleasePace } from './release-pace';

const NOW = 1_800_000_000_000;
type State = 'initialized' | 'receiving' | 'complete' | 'released' | 'failed';

describe('CoordinateImportsUseCase', () => {
  let imports: FakeImportRepository;
  let broker: FakeBroker;
  let useCase: CoordinateImportsUseCase;

  beforeEach(() => {
    imports = new FakeImportRepository();
    broker = new FakeBroker();
    useCase = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => NOW });
  });

  const page = (objectType: ObjectType, pageNumber: number, itemCount: number): ImportEvent => ({ kind: 'page-received', objectType, pageNumber, itemCount });
  /** Ends of every type of `record` with what it received, at `at`. */
  const endsOf = (record: ImportRecord, at: number): ImportEvent[] =>
    (Object.entries(record.types) as [ObjectType, ImportTypeState][]).map(([objectType, state]) => ({
      kind: 'end-received',
      objectType,
      ...receivedCounts(state),
      at,
    }));

  /** An import brought to `state` as the gateway would, with one page of one contact. */
  async function anImportIn(state: State, overrides: Parameters<typeof aNewImport>[0] = {}): Promise<ImportRecord> {
    const record = (await imports.create(aNewImport(overrides)))!;
    if (state === 'failed') await moveImport(imports, record.importId, { kind: 'failed', reason: 'the receiver did not answer', at: Date.now() });
    if (state !== 'initialized' && state !== 'failed') {
      await imports.putPage(record.importId, 'CONTACT', 1, [{ externalObjectId: 'c-1', properties: { email: 'a@example.com' } }]);
      await moveImport(imports, record.importId, page('CONTACT', 1, 1));
    }
    if (state === 'complete' || state === 'released') {
      await moveImport(imports, record.importId, ...endsOf((await imports.findById(record.importId))!, NOW - 1_000));
    }
    if (state === 'released') {
      await moveImport(
        imports,
        record.importId,
        { kind: 'release-claimed', at: NOW - 600, staleBefore: NOW - 600, owner: 'earlier' },
        { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: NOW - 500, owner: 'earlier' },
      );
    }
    return (await imports.findById(record.importId))!;
  }

  /** Pages stored and counted, as the gateway does. */
  async function received(record: ImportRecord, objectType: ObjectType, pageNumber: number, messages: ImportItem[]) {
    await imports.putPage(record.importId, objectType, pageNumber, messages);
    await moveImport(imports, record.importId, page(objectType, pageNumber, messages.length));
  }
  const completed = async (record: ImportRecord) => moveImport(imports, record.importId, ...endsOf((await imports.findById(record.importId))!, NOW));

  const everyCount = (count: number | null) => ({ importCounts: OBJECT_TYPES.map((type) => ({ settingsId: IMPORT_SETTINGS_IDS[type], count })) });
  const events: Record<string, (importId: string) => ImportEventMessage> = {
    'import-started': (importId) => ({ kind: 'import-started', importId }),
    'webhook answered with every count': (importId) => ({ kind: 'webhook-completed', requestId: importId, ok: true, status: 200, body: everyCount(5) }),
    'webhook answered without a count of LINE_ITEM': (importId) => ({
      kind: 'webhook-completed',
      requestId: importId,
      ok: true,
      status: 200,
      body: { importCounts: everyCount(5).importCounts.filter(({ settingsId }) => settingsId !== IMPORT_SETTINGS_IDS.LINE_ITEM) },
    }),
    'webhook answered with a body that is no answer': (importId) => ({
      kind: 'webhook-completed',
      requestId: importId,
      ok: true,
      status: 200,
      body: { counts: 3 },
    }),
    'webhook failed': (importId) => ({ kind: 'webhook-completed', requestId: importId, ok: false, reason: 'answered 500' }),
    'import-completed': (importId) => ({ kind: 'import-completed', importId }),
  };

  describe('state transitions', () => {
    it.each<[State, string, ImportRecord['status'], string[]]>([
      ['initialized', 'import-started', 'initialized', [TOPICS.webhookRequested]],
      ['receiving', 'import-started', 'receiving', []],
      ['failed', 'import-started', 'failed', []],
      ['initialized', 'webhook answered with every count', 'initialized', []],
      ['receiving', 'webhook answered with every count', 'receiving', []],
      ['initialized', 'webhook answered without a count of LINE_ITEM', 'failed', []],
      ['initialized', 'webhook answered with a body that is no answer', 'failed', []],
      ['initialized', 'webhook failed', 'failed', []],
      ['receiving', 'webhook answered without a count of LINE_ITEM', 'receiving', []],
      ['receiving', 'webhook answered with a body that is no answer', 'receiving', []],
      ['receiving', 'webhook failed', 'receiving', []],
      ['complete', 'webhook failed', 'complete', []],
      ['initialized', 'import-completed', 'initialized', []],
      ['receiving', 'import-completed', 'receiving', []],
      ['failed', 'import-completed', 'failed', []],
      ['complete', 'import-completed', 'complete', [`${TOPICS.syncBatch}.CONTACT`]],
      ['released', 'import-completed', 'complete', []],
    ])('when an import is %s and the event is "%s", then it is %s and publishes %j', async (before, event, after, routingKeys) => {
      const record = await anImportIn(before);

      await useCase.handle(events[event](record.importId));
      await useCase.settled();

      expect((await imports.findById(record.importId))!.status).toBe(after);
      expect(broker.routingKeys()).toEqual(routingKeys);
    });

    it.each(Object.keys(events))('when the event "%s" names no known import, then nothing is stored or published', async (event) => {
      await expect(useCase.handle(events[event]('ffffffffffffffffffffffff'))).resolves.toBeUndefined();
      await useCase.settled();

      expect(broker.published).toEqual([]);
    });
  });

  describe('the initialization webhook', () => {
    it('when a v1 import starts, then the webhook is requested of its address, with its portal, start and settings ids (SPEC.md: no store)', async () => {
      const record = await anImportIn('initialized', { types: { CONTACT: anImportTypeState('CONTACT'), DEAL: anImportTypeState('DEAL') } });

      await useCase.handle({ kind: 'import-started', importId: record.importId });

      const [request] = broker.bodiesTo<WebhookRequestMessage>(TOPICS.webhookRequested);
      expect(request).toEqual({ requestId: record.importId, appId: record.tenant.appId, url: record.webhookUri, body: expect.any(String) });
      expect(JSON.parse(request.body)).toEqual({
        portalId: record.tenant.portalId,
        importStartedAt: record.importStartedAt,
        settingsToImport: [
          { settingsId: IMPORT_SETTINGS_IDS.CONTACT, objectType: 'CONTACT' },
          { settingsId: IMPORT_SETTINGS_IDS.DEAL, objectType: 'DEAL' },
        ],
      });
    });

    it('when a v2 import of a store starts, then the webhook names the store, so that a receiver with several stores sends its pages to it', async () => {
      const record = await anImportIn('initialized', { version: 'v2', storeId: 'shop-eu', types: { CONTACT: anImportTypeState('CONTACT') } });

      await useCase.handle({ kind: 'import-started', importId: record.importId });

      const [request] = broker.bodiesTo<WebhookRequestMessage>(TOPICS.webhookRequested);
      expect(JSON.parse(request.body)).toEqual({
        portalId: record.tenant.portalId,
        storeId: 'shop-eu',
        importStartedAt: record.importStartedAt,
        settingsToImport: [{ settingsId: IMPORT_SETTINGS_IDS.CONTACT, objectType: 'CONTACT' }],
      });
    });

    it.each([
      ['before the answer', false],
      ['after the answer', true],
    ])('when the start is delivered again %s, then no second webhook is requested', async (_case, answered) => {
      const record = await anImportIn('initialized');
      await useCase.handle({ kind: 'import-started', importId: record.importId });
      if (answered) await useCase.handle(events['webhook answered with every count'](record.importId));

      await useCase.handle({ kind: 'import-started', importId: record.importId });

      expect(broker.bodiesTo(TOPICS.webhookRequested)).toHaveLength(1);
      expect(await imports.findById(record.importId)).toMatchObject({ status: 'initialized', webhookRequestedAt: expect.any(Number) });
    });

    it('when the receiver answers, then each type gets its expected count, null where it could not tell', async () => {
      const record = await anImportIn('initialized', { types: { CONTACT: anImportTypeState('CONTACT'), DEAL: anImportTypeState('DEAL') } });
      const body = {
        importCounts: [
          { settingsId: IMPORT_SETTINGS_IDS.CONTACT, count: 12 },
          { settingsId: IMPORT_SETTINGS_IDS.DEAL, count: null },
        ],
      };

      await useCase.handle({ kind: 'webhook-completed', requestId: record.importId, ok: true, status: 200, body });

      const { types } = (await imports.findById(record.importId))!;
      expect([types.CONTACT!.expectedCount, types.DEAL!.expectedCount]).toEqual([12, null]);
    });

    it.each([
      ['leaves a count out', { settingsId: IMPORT_SETTINGS_IDS.DEAL }, null],
      ['sends a count as text', { settingsId: IMPORT_SETTINGS_IDS.DEAL, count: '120' }, 120],
    ])('when the receiver %s, then the import goes on with that estimate', async (_case, dealEntry, expected) => {
      const record = await anImportIn('initialized', { types: { CONTACT: anImportTypeState('CONTACT'), DEAL: anImportTypeState('DEAL') } });
      const body = { importCounts: [{ settingsId: IMPORT_SETTINGS_IDS.CONTACT, count: 3 }, dealEntry] };

      await useCase.handle({ kind: 'webhook-completed', requestId: record.importId, ok: true, status: 200, body });

      expect(await imports.findById(record.importId)).toMatchObject({
        status: 'initialized',
        failureReason: null,
        types: { CONTACT: { expectedCount: 3 }, DEAL: { expectedCount: expected } },
      });
    });

    it('when the receiver answers an estimate that is not a whole number, then the import goes on with it rounded', async () => {
      const record = await anImportIn('initialized', { types: { CONTACT: anImportTypeState('CONTACT') } });
      const body = { importCounts: [{ settingsId: IMPORT_SETTINGS_IDS.CONTACT, count: 1234.5 }] };

      await useCase.handle({ kind: 'webhook-completed', requestId: record.importId, ok: true, status: 200, body });

      expect(await imports.findById(record.importId)).toMatchObject({ status: 'initialized', types: { CONTACT: { expectedCount: 1235 } } });
    });

    it.each([
      ['webhook answered without a count of LINE_ITEM', /no importCounts entry for settingsId 4 \(LINE_ITEM\)/],
      ['webhook answered with a body that is no answer', /not an import initialization response/],
      ['webhook failed', /answered 500/],
    ])('when the %s, then the import fails with a reason that says so', async (event, reason) => {
      const record = await anImportIn('initialized');

      await useCase.handle(events[event](record.importId));

      expect((await imports.findById(record.importId))!.failureReason).toMatch(reason);
    });
  });

  describe('the release', () => {
    const item = (id: string) => ({ externalObjectId: id, properties: { name: id } });

    it('when a complete import is released, then its pages go out in release order as import batches that take the import start as change time', async () => {
      const record = await anImportIn('initialized');
      await received(record, 'LINE_ITEM', 1, [{ ...item('l-1'), associations: { DEAL: ['d-1'] } }]);
      await received(record, 'DEAL', 1, [item('d-1')]);
      await received(record, 'CONTACT', 1, [item('c-1'), item('c-2')]);
      await completed(record);

      await useCase.handle({ kind: 'import-completed', importId: record.importId });
      await useCase.settled();

      expect(broker.routingKeys()).toEqual(['sync.batch.CONTACT', 'sync.batch.DEAL', 'sync.batch.LINE_ITEM']);
      const [, , lineItems] = broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.*`);
      expect(lineItems).toEqual({
        batchId: `import:${record.importId}:LINE_ITEM:1`,
        tenant: record.tenant,
        storeId: record.storeId,
        objectType: 'LINE_ITEM',
        source: 'import',
        receivedAt: NOW,
        messages: [
          { externalObjectId: 'l-1', action: 'UPSERT', changedAt: record.importStartedAt, properties: { name: 'l-1' }, associations: { DEAL: ['d-1'] } },
        ],
      });
      expect(await imports.findById(record.importId)).toMatchObject({ releasedThrough: 'LINE_ITEM:done', releasedAt: NOW });
    });

    it('when a page was stored but never counted (its request failed after storing it), then it is not released', async () => {
      const record = await anImportIn('initialized', { types: { DEAL: anImportTypeState('DEAL') } });
      await received(record, 'DEAL', 1, [item('d-1')]);
      await imports.putPage(record.importId, 'DEAL', 2, [item('d-stray')]);
      await completed(record);

      await useCase.handle({ kind: 'import-completed', importId: record.importId });
      await useCase.settled();

      expect(broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.DEAL`).map((batch) => batch.batchId)).toEqual([`import:${record.importId}:DEAL:1`]);
      expect((await imports.findById(record.importId))!.releasedAt).toBe(NOW);
    });

    it('when a type ends on an empty page (SPEC.md: up to 500 messages), then its other pages go out and the empty one sends nothing', async () => {
      const record = await anImportIn('initialized', { types: { DEAL: anImportTypeState('DEAL') } });
      await received(record, 'DEAL', 1, [item('d-1')]);
      await received(record, 'DEAL', 2, []);
      await completed(record);

      await useCase.handle({ kind: 'import-completed', importId: record.importId });
      await useCase.settled();

      expect(broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.DEAL`).map((batch) => batch.batchId)).toEqual([`import:${record.importId}:DEAL:1`]);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedThrough: 'LINE_ITEM:done', releasedAt: NOW });
    });

    it('when a release stopped after a page, then it resumes after that page and sends nothing twice', async () => {
      const record = await anImportIn('complete');
      await moveImport(
        imports,
        record.importId,
        { kind: 'release-claimed', at: NOW - 60_000, staleBefore: NOW - 90_000, owner: 'earlier' },
        { kind: 'release-progressed', through: 'CONTACT:1', done: false, at: NOW - 60_000, owner: 'earlier' },
      );

      await useCase.handle({ kind: 'import-completed', importId: record.importId });
      await useCase.settled();

      expect(broker.published).toEqual([]);
      expect((await imports.findById(record.importId))!.releasedAt).toBe(NOW);
    });

    it('when an import is released, then each page waits for its portal’s intake pace before it goes out', async () => {
      const record = await anImportIn('initialized', { types: { PRODUCT: anImportTypeState('PRODUCT') } });
      for (let pageNumber = 1; pageNumber <= 3; pageNumber++)
        await received(record, 'PRODUCT', pageNumber, [item(`p-${pageNumber}a`), item(`p-${pageNumber}b`)]);
      await completed(record);
      const waits: { ms: number; publishedBefore: number }[] = [];
      // 2 objects a second, 2 at once: the first page goes at once, each next one a second later.
      const pace = new ReleasePace({ objectsPerSecond: 2, burstObjects: 2, maxWaitMs: 10_000 }, new FakeIntakePaceRepository(), {
        clock: () => NOW,
        wait: async (ms) => void waits.push({ ms, publishedBefore: broker.published.length }),
      });
      const paced = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => NOW, pace });

      await paced.handle({ kind: 'import-completed', importId: record.importId });
      await paced.settled();

      expect(waits).toEqual([
        { ms: 1000, publishedBefore: 1 },
        { ms: 2000, publishedBefore: 2 },
      ]);
      expect(broker.published).toHaveLength(3);
    });

    it('when a second releaser comes while the first holds the release (a redelivered completion), then it releases nothing', async () => {
      const record = await anImportIn('complete');
      await moveImport(imports, record.importId, { kind: 'release-claimed', at: NOW - 1_000, staleBefore: NOW - 31_000, owner: 'first' });

      await useCase.handle({ kind: 'import-completed', importId: record.importId });
      await useCase.settled();

      expect(broker.published).toEqual([]);
      expect((await imports.findById(record.importId))!.releasedAt).toBeNull();
    });

    it.each<[string, ImportEvent[], Partial<ImportRecord>]>([
      ['took it over', [], { releasedThrough: null, releasedAt: null, releaseOwner: 'second' }],
      [
        'took it over and finished it',
        [{ kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: NOW, owner: 'second' }],
        { releasedThrough: 'LINE_ITEM:done', releasedAt: NOW, releaseOwner: 'second' },
      ],
      [
        'took it over and dropped its claim',
        [{ kind: 'release-dropped', owner: 'second', reason: 'publish not confirmed', at: NOW }],
        { releasedThrough: null, releasedAt: null, releaseOwner: null },
      ],
    ])(
      'when a releaser stalled waiting for its portal’s pace and another %s meanwhile, then it stops without sending and leaves the release as the other left it',
      async (_case, others, left) => {
        const record = await anImportIn('complete');
        const { logger, entries } = recordingLogger();
        let takenOver = false;
        const pace = {
          take: async (_portalId: number, _objects: number, signal?: AbortSignal) => {
            await moveImport(imports, record.importId, { kind: 'release-claimed', at: NOW, staleBefore: NOW, owner: 'second' }, ...others);
            takenOver = true;
            // Learns it lost the release at its next hold (a third of the look-back), which aborts this wait.
            return new Promise<number>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
          },
          giveBack: async () => undefined,
        };
        const stalled = new CoordinateImportsUseCase(asRepositories({ imports }), broker, logger, {
          clock: () => NOW,
          pace,
          lookBackMs: 30,
          newReleaseOwner: () => 'first',
        });

        await stalled.handle({ kind: 'import-completed', importId: record.importId });
        await stalled.settled();
        await stalled.settled();

        expect(takenOver).toBe(true);
        expect(broker.published).toEqual([]);
        expect(await imports.findById(record.importId)).toMatchObject(left);
        expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/taken over by another releaser/) }));
      },
    );

    it('when the database cannot be reached for the pace, then the release stops without sending, says so and drops its claim for the next check', async () => {
      const record = await anImportIn('complete');
      const away = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { name: 'MongoServerSelectionError' });
      const pace = { take: () => Promise.reject(away), giveBack: async () => undefined };
      const { logger, entries } = recordingLogger();
      const unreachable = new CoordinateImportsUseCase(asRepositories({ imports }), broker, logger, { clock: () => NOW, pace });

      await unreachable.handle({ kind: 'import-completed', importId: record.importId });
      await unreachable.settled();

      expect(broker.published).toEqual([]);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedAt: null, releaseProgressAt: null, releaseOwner: null });
      expect(entries).toContainEqual(
        expect.objectContaining({ level: 'warn', message: expect.stringMatching(/releasing an import failed/), error: expect.stringMatching(/ECONNREFUSED/) }),
      );
    });

    it('when a releaser finds at its next step that the release was taken over, then it sends no further page and does not mark it released', async () => {
      const record = await anImportIn('initialized', { types: { PRODUCT: anImportTypeState('PRODUCT') } });
      for (let pageNumber = 1; pageNumber <= 45; pageNumber++) await received(record, 'PRODUCT', pageNumber, [item(`p-${pageNumber}`)]);
      await completed(record);
      let takes = 0;
      const pace = {
        take: async () => {
          if (++takes === 5) await moveImport(imports, record.importId, { kind: 'release-claimed', at: NOW, staleBefore: NOW, owner: 'second' });
          return 0;
        },
        giveBack: async () => undefined,
      };
      const first = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, {
        clock: () => NOW,
        pace,
        newReleaseOwner: () => 'first',
      });

      await first.handle({ kind: 'import-completed', importId: record.importId });
      await first.settled();

      // The pages of the read in hand (the first five) went out (harmless: each is one batch id); none after it.
      expect(broker.published).toHaveLength(5);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedThrough: null, releasedAt: null, releaseOwner: 'second' });
    });

    it('when a page cannot be published, then nothing more is paced or sent, its objects are the portal’s pace again, the import says why, and the next check releases it', async () => {
      const record = await anImportIn('initialized', { types: { PRODUCT: anImportTypeState('PRODUCT') } });
      for (let pageNumber = 1; pageNumber <= 3; pageNumber++) await received(record, 'PRODUCT', pageNumber, [item(`p-${pageNumber}`)]);
      await completed(record);
      const paces = new FakeIntakePaceRepository();
      const pace = new ReleasePace({ objectsPerSecond: 1, burstObjects: 10, maxWaitMs: 10_000 }, paces, { clock: () => NOW, wait: async () => undefined });
      const { logger, entries } = recordingLogger();
      let now = NOW;
      const paced = new CoordinateImportsUseCase(asRepositories({ imports }), broker, logger, { clock: () => now, pace });
      broker.failNextPublishes(1);

      await paced.handle({ kind: 'import-completed', importId: record.importId });
      await paced.settled();

      expect(broker.published).toEqual([]);
      expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', error: expect.stringMatching(/publishing failed/) }));
      // What the pages took of the pace (1 s each at 1 a second) was given back.
      expect(await paces.find(record.tenant.portalId)).toBe(NOW);
      // The claim was dropped: a later check releases it (another replica's at once, this one's after a look-back).
      expect(await imports.findById(record.importId)).toMatchObject({
        releasedAt: null,
        releaseProgressAt: null,
        releaseProblem: { reason: 'a page could not be handed to the message broker', at: NOW, tries: 1, since: NOW },
      });
      now = NOW + 30_000; // the next check, a look-back after the completion
      await paced.releaseUnfinished(30_000);
      await paced.settled();
      expect(broker.published).toHaveLength(3);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedAt: NOW + 30_000, releaseProblem: null });
    });

    it('when a completion is handled, then the handler returns while the release waits for its portal’s pace, and the release goes on beside it', async () => {
      const record = await anImportIn('complete');
      const paceGiven = deferred();
      const pace = { take: async () => (await paceGiven.promise, 0), giveBack: async () => undefined };
      const waiting = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => NOW, pace });

      await waiting.handle({ kind: 'import-completed', importId: record.importId });

      expect(broker.published).toEqual([]); // the message is settled; the release holds its claim meanwhile
      expect((await imports.findById(record.importId))!.releaseOwner).not.toBeNull();
      paceGiven.resolve();
      await waiting.settled();
      expect(broker.published).toHaveLength(1);
      expect((await imports.findById(record.importId))!.releasedAt).toBe(NOW);
    });

    it('when the replica runs as many releases as it may, then a further completion claims nothing and the check takes it once there is room', async () => {
      const first = await anImportIn('complete');
      const second = await anImportIn('complete', { importStartedAt: NOW - 5_000 });
      const paceGiven = deferred();
      const pace = { take: async () => (await paceGiven.promise, 0), giveBack: async () => undefined };
      let now = NOW;
      const one = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => now, pace, releasesAtOnce: 1 });

      await one.handle({ kind: 'import-completed', importId: first.importId });
      await one.handle({ kind: 'import-completed', importId: second.importId });
      now = NOW + 30_000;
      await one.releaseUnfinished(30_000); // no room: it does not even look

      expect((await imports.findById(second.importId))!.releaseOwner).toBeNull();
      paceGiven.resolve();
      await one.settled();
      await one.releaseUnfinished(30_000);
      await one.settled();
      expect((await imports.findById(first.importId))!.releasedAt).toBe(NOW + 30_000);
      expect((await imports.findById(second.importId))!.releasedAt).toBe(NOW + 30_000);
      expect(broker.published).toHaveLength(2);
    });

    it('when the check runs, then it reports the portals whose imports nobody releases and the oldest wait, room or not; a failed read only skips the report', async () => {
      await anImportIn('complete'); // completed at NOW - 1_000
      await anImportIn('complete', { importStartedAt: NOW - 5_000 });
      const observed: ReleaseBacklog[] = [];
      const { logger, entries } = recordingLogger();
      const full = new CoordinateImportsUseCase(asRepositories({ imports }), broker, logger, {
        clock: () => NOW + 59_000,
        releasesAtOnce: 0, // no room: nothing starts, the backlog is still read
        observeBacklog: (backlog) => observed.push(backlog),
      });

      await full.releaseUnfinished(30_000);
      expect(observed).toEqual([{ portalsWaiting: 2, oldestWaitMs: 60_000, running: 0 }]);

      jest.spyOn(imports, 'releaseBacklog').mockRejectedValueOnce(new Error('database unreachable'));
      await full.releaseUnfinished(30_000);
      expect(observed).toHaveLength(1);
      expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', message: 'the import release backlog could not be read' }));
    });

    it('when a release of a portal runs on this replica, then another import of that portal is left for later and one of another portal starts', async () => {
      const running = await anImportIn('complete');
      const samePortal = await anImportIn('complete', { tenant: anAppTenant({ portalId: running.tenant.portalId }), importStartedAt: NOW - 5_000 });
      const otherPortal = await anImportIn('complete', { importStartedAt: NOW - 6_000 });
      const paceGiven = deferred();
      const pace = { take: async () => (await paceGiven.promise, 0), giveBack: async () => undefined };
      const replica = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => NOW, pace });

      for (const record of [running, samePortal, otherPortal]) await replica.handle({ kind: 'import-completed', importId: record.importId });

      const owners = async () =>
        Promise.all([running, samePortal, otherPortal].map(async (record) => (await imports.findById(record.importId))!.releaseOwner !== null));
      expect(await owners()).toEqual([true, false, true]);
      paceGiven.resolve();
      await replica.settled();
    });

    it('when a release failed on this replica, then its check leaves that import for a look-back and releases the others', async () => {
      const failing = await anImportIn('complete');
      const waiting = await anImportIn('receiving', { importStartedAt: NOW - 5_000 });
      await moveImport(imports, waiting.importId, ...endsOf(waiting, NOW - 500)); // completed after the failing one
      let now = NOW;
      const one = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => now, releasesAtOnce: 1 });
      broker.failNextPublishes(1);
      await one.handle({ kind: 'import-completed', importId: failing.importId });
      await one.settled();
      expect((await imports.findById(failing.importId))!.releasedAt).toBeNull();

      now = NOW + 20_000;
      await one.releaseUnfinished(10_000); // the failed one completed first, but waits here for the look-back (30 s)
      await one.settled();
      expect([(await imports.findById(failing.importId))!.releasedAt, (await imports.findById(waiting.importId))!.releasedAt]).toEqual([null, NOW + 20_000]);

      now = NOW + 30_000;
      await one.releaseUnfinished(10_000);
      await one.settled();
      expect((await imports.findById(failing.importId))!.releasedAt).toBe(NOW + 30_000);
    });

    it('when more imports of a portal busy on this replica wait than the check has room for, then an import of another portal completed later is still released', async () => {
      const busyPortal = anAppTenant();
      const running = await anImportIn('complete', { tenant: busyPortal });
      for (let i = 1; i <= 3; i++) await anImportIn('complete', { tenant: anAppTenant({ portalId: busyPortal.portalId }), importStartedAt: NOW - i * 1_000 });
      const other = await anImportIn('receiving', { importStartedAt: NOW - 9_000 });
      await moveImport(imports, other.importId, ...endsOf(other, NOW - 500)); // completed last; its completion event was lost
      const paceGiven = deferred();
      const pace = { take: async () => (await paceGiven.promise, 0), giveBack: async () => undefined };
      const two = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => NOW, pace, releasesAtOnce: 2 });
      await two.handle({ kind: 'import-completed', importId: running.importId });

      await two.releaseUnfinished(0);

      expect((await imports.findById(other.importId))!.releaseOwner).not.toBeNull();
      paceGiven.resolve();
      await two.settled();
    });

    it('when the service has stopped, then a completion claims nothing: the release is left free for another replica', async () => {
      const record = await anImportIn('complete');
      await useCase.stop();

      await useCase.handle({ kind: 'import-completed', importId: record.importId });
      await useCase.settled();

      expect(broker.published).toEqual([]);
      expect(await imports.findById(record.importId)).toMatchObject({ releasedAt: null, releaseProgressAt: null });
    });

    it('when a release waits for its portal’s pace, then it says it still holds it, a third of a look-back apart', async () => {
      const record = await anImportIn('complete');
      let now = NOW;
      let release: () => void = () => undefined;
      const pace = { take: () => new Promise<number>((resolve) => (release = () => resolve(0))), giveBack: async () => undefined };
      const waiting = new CoordinateImportsUseCase(asRepositories({ imports }), broker, recordingLogger().logger, { clock: () => now, pace, lookBackMs: 30 });

      const releasing = waiting.handle({ kind: 'import-completed', importId: record.importId });
      now = NOW + 1_000;
      const held = await waitFor(async () => ((await imports.findById(record.importId))!.releaseProgressAt === NOW + 1_000 ? true : undefined), {
        message: 'the release held at the later time',
        intervalMs: 5,
      });
      release();
      await releasing;
      await waiting.settled();

      expect(held).toBe(true);
      expect((await imports.findById(record.importId))!.releasedAt).toBe(NOW + 1_000);
    });

    it('when the service stops while a release waits for its portal’s pace, then the release ends quietly where it is', async () => {
      const record = await anImportIn('complete');
      const { logger, entries } = recordingLogger();
      const pace = {
        take: (_portalId: number, _objects: number, signal?: AbortSignal) =>
          new Promise<number>((_, reject) => {
            if (signal?.aborted) reject(new Error('stopped'));
            signal?.addEventListener('abort', () => reject(new Error('stopped')));
          }),
        giveBack: async () => undefined,
      };
      const paced = new CoordinateImportsUseCase(asRepositories({ imports }), broker, logger, { clock: () => NOW, pace });

      await paced.handle({ kind: 'import-completed', importId: record.importId });
      await paced.stop();

      expect(broker.published).toEqual([]);
      expect((await imports.findById(record.importId))!.releasedAt).toBeNull();
      expect(entries).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/stopped with the service/) }));
    });

    it('when one unfinished import fails to release, then the others are still released and the failure is logged', async () => {
      const first = await anImportIn('complete');
      const second = await anImportIn('complete', { importStartedAt: NOW - 5_000 });
      const { logger, entries } = recordingLogger();
      const checking = new CoordinateImportsUseCase(asRepositories({ imports }), broker, logger, { clock: () => NOW });
      broker.failNextPublishes(1);

      await checking.releaseUnfinished(500);
      await checking.settled();

      const released = [(await imports.findById(first.importId))!.releasedAt, (await imports.findById(second.importId))!.releasedAt];
      expect(released.sort()).toEqual([NOW, null].sort());
      expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/releasing an import failed/) }));
    });

    it('when a type has more pages than one read takes, then every page goes out once, in page order', async () => {
      const record = await anImportIn('initialized', { types: { PRODUCT: anImportTypeState('PRODUCT') } });
      for (let pageNumber = 1; pageNumber <= 45; pageNumber++) await received(record, 'PRODUCT', pageNumber, [item(`p-${pageNumber}`)]);
      await completed(record);

      await useCase.handle({ kind: 'import-completed', importId: record.importId });
      await useCase.settled();

      const batchIds = broker.bodiesTo<SyncBatchMessage>(`${TOPICS.syncBatch}.PRODUCT`).map((batch) => batch.batchId);
      expect(batchIds).toEqual(Array.from({ length: 45 }, (_, i) => `import:${record.importId}:PRODUCT:${i + 1}`));
    });

    it.each([
      [2_000, 'completed more recently than that', null],
      [500, 'completed before that', NOW],
    ])(
      'when a complete import was left unreleased and the check is for imports older than %i ms, then one %s is released at %p',
      async (olderThanMs, _case, releasedAt) => {
        const record = await anImportIn('complete');

        await useCase.releaseUnfinished(olderThanMs);
        await useCase.settled();

        expect((await imports.findById(record.importId))!.releasedAt).toBe(releasedAt);
      },
    );
  });
});
