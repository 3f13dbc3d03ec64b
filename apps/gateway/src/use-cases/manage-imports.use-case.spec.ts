import { type ImportEventMessage, OBJECT_TYPES, type ObjectType, TOPICS } from '@ecomm-sync/contracts';
import {
  anAppTenant,
  asRepositories,
  aStoredSettings,
  FakeAccountRepository,
  FakeBroker,
  FakeEcommerceInstallRepository,
  FakeImportRepository,
  FakeSettingsRepository,
  FakeStoreRepository,
  moveImport,
  recordingLogger,
} from '@ecomm-sync/testing';
import { settingsOwner } from '@ecomm-sync/data-access';
import type { ImportState } from '@ecomm-sync/domain';
import { ManageImportsUseCase, type ImportTenant } from './manage-imports.use-case';

const NOW = 1_750_000_000_000;
const items = (count: number) => Array.from({ length: count }, (_, i) => ({ externalObjectId: `obj-${i}`, properties: { name: `n${i}` } }));

describe('ManageImportsUseCase', () => {
  let tenant: ImportTenant;
  let imports: FakeImportRepository;
  let accounts: FakeAccountRepository;
  let settings: FakeSettingsRepository;
  let stores: FakeStoreRepository;
  let ecommerceInstalls: FakeEcommerceInstallRepository;
  let broker: FakeBroker;
  let logs: ReturnType<typeof recordingLogger>['entries'];
  let useCase: ManageImportsUseCase;

  beforeEach(async () => {
    tenant = anAppTenant();
    imports = new FakeImportRepository();
    accounts = new FakeAccountRepository();
    settings = new FakeSettingsRepository();
    stores = new FakeStoreRepository();
    ecommerceInstalls = new FakeEcommerceInstallRepository();
    broker = new FakeBroker();
    const recording = recordingLogger();
    logs = recording.entries;
    useCase = new ManageImportsUseCase(asRepositories({ imports, accounts, settings, stores, ecommerceInstalls }), broker, recording.logger, () => NOW);
    await accounts.install(tenant.portalId, tenant.appId, NOW);
    const { rev: _rev, ...stored } = aStoredSettings({ webhookUri: 'https://shop.example.com/import' });
    await settings.put(tenant, stored);
  });

  /** An import of the default store with every object type but `open` ended with matching counts. */
  const startedWithAllEndedBut = async (open: ObjectType) => {
    const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
    for (const type of OBJECT_TYPES.filter((candidate) => candidate !== open)) {
      await useCase.putPage(tenant, 'default', importStartedAt, type, 1, items(2));
      await useCase.end(tenant, 'default', importStartedAt, type, { pageCount: 1, itemCount: 2 });
    }
    return importStartedAt;
  };

  describe('start', () => {
    it('when an installed application with an import address starts an import, then it is initialized for every object type and handed to the coordinator', async () => {
      expect(await useCase.start(tenant, 'default', 'v1')).toEqual({ importStartedAt: NOW, status: 'initialized' });

      const started = (await imports.find(tenant, 'default', NOW))!;
      expect(started).toMatchObject({ version: 'v1', status: 'initialized', webhookUri: 'https://shop.example.com/import' });
      expect(Object.keys(started.types).sort()).toEqual([...OBJECT_TYPES].sort());
      expect(broker.bodiesTo<ImportEventMessage>(TOPICS.importStarted)).toEqual([{ kind: 'import-started', importId: started.importId }]);
    });

    it('when two imports of a store start at the same instant, then the second starts a millisecond later', async () => {
      await useCase.start(tenant, 'default', 'v1');
      expect((await useCase.start(tenant, 'default', 'v1')).importStartedAt).toBe(NOW + 1);
    });

    it.each([
      [
        'the application is not installed',
        async (): Promise<unknown> => accounts.removeInstall(tenant.portalId, tenant.appId),
        'v1',
        404,
        /not installed in portal/,
      ],
      [
        'the application has no import address',
        async (): Promise<unknown> => settings.put(tenant, { ...aStoredSettings(), webhookUri: null }),
        'v1',
        409,
        /no import address: set importTriggerUri/,
      ],
      [
        'the v2 settings were deleted (their webhookUri with them)',
        async (): Promise<unknown> => settings.remove(settingsOwner(tenant)),
        'v1',
        409,
        /no import address/,
      ],
      ['a v2 import names a store not defined', async (): Promise<unknown> => undefined, 'v2', 404, /No store "default"; define it with PUT/],
    ] as const)('when %s, then the import is refused with what to fix, and nothing is started', async (_case, arrange, version, status, message) => {
      await arrange();
      await expect(useCase.start(tenant, 'default', version)).rejects.toMatchObject({ status, message: expect.stringMatching(message) });
      expect(await imports.find(tenant, 'default', NOW)).toBeNull();
      expect(broker.routingKeys()).toEqual([]);
    });

    it('when the v1 settings were deleted, then an import still starts with the address v1 import-settings kept (decision 61)', async () => {
      await settings.remove(settingsOwner(tenant), { keepWebhookUri: true });

      expect((await useCase.start(tenant, 'default', 'v1')).status).toBe('initialized');
      expect(await imports.find(tenant, 'default', NOW)).toMatchObject({ webhookUri: 'https://shop.example.com/import' });
    });

    it('when a v2 import names a defined store, then it starts', async () => {
      await stores.upsert(tenant, { id: 'eu', label: 'Europe' });
      expect((await useCase.start(tenant, 'eu', 'v2')).status).toBe('initialized');
    });

    it('when the start cannot be queued, then a 503 asks to start again and the import is failed', async () => {
      broker.failNextPublishes(1);
      await expect(useCase.start(tenant, 'default', 'v1')).rejects.toMatchObject({ status: 503 });
      expect(await imports.find(tenant, 'default', NOW)).toMatchObject({ status: 'failed', failureReason: 'the import could not be queued' });
    });

    it.each([
      [true, 1],
      [false, 0],
    ])('when an application installs with importOnInstall %s, then %i imports start, however often the install is sent', async (importOnInstall, count) => {
      await settings.put(tenant, { ...aStoredSettings(), importOnInstall });
      await ecommerceInstalls.markInstalled(tenant, NOW, { importOnInstall: true });
      await Promise.all([useCase.startOnInstall(tenant), useCase.startOnInstall(tenant)]);
      await ecommerceInstalls.markInstalled(tenant, NOW, { importOnInstall: true });
      await useCase.startOnInstall(tenant);
      expect(broker.bodiesTo(TOPICS.importStarted)).toHaveLength(count);
    });

    it('when the import on install cannot start, then the install goes on, the reason is logged, and the install sent again starts it', async () => {
      const { rev: _rev, ...stored } = aStoredSettings({ importOnInstall: true, webhookUri: null });
      await settings.put(tenant, stored);
      await ecommerceInstalls.markInstalled(tenant, NOW, { importOnInstall: true });
      await expect(useCase.startOnInstall(tenant)).resolves.toBeUndefined();
      expect(logs.find((entry) => /the import on install did not start/.test(entry.message))?.error).toMatch(/no import address/);

      await settings.put(tenant, { ...stored, webhookUri: 'https://shop.example.com/import' });
      await useCase.startOnInstall(tenant);

      expect(broker.bodiesTo(TOPICS.importStarted)).toHaveLength(1);
    });
  });

  describe('pages and ends', () => {
    it('when pages are sent and the end counts match, then the type has ended and the view shows what was received', async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      await useCase.putPage(tenant, 'default', importStartedAt, 'CONTACT', 1, items(3));
      await useCase.putPage(tenant, 'default', importStartedAt, 'CONTACT', 2, items(1));
      await useCase.end(tenant, 'default', importStartedAt, 'CONTACT', { pageCount: 2, itemCount: 4 });

      const view = await useCase.view(tenant, 'default', importStartedAt);
      expect(view.objectTypes.CONTACT).toMatchObject({ pagesReceived: 2, itemsReceived: 4, ended: true });
      expect(view.objectTypes.DEAL).toMatchObject({ pagesReceived: 0, ended: false });
      expect(await useCase.getPage(tenant, 'default', importStartedAt, 'CONTACT', 2)).toEqual(items(1));
    });

    it('when a page names an association its object type has not (a product naming a deal), then it is refused with 400 and nothing is received', async () => {
      await stores.upsert(tenant, { id: 'eu', label: 'Europe' });
      const { importStartedAt } = await useCase.start(tenant, 'eu', 'v2');
      const page = [...items(2), { externalObjectId: 'p-9', properties: {}, associations: { DEAL: ['d-1'] } }];

      await expect(useCase.putPage(tenant, 'eu', importStartedAt, 'PRODUCT', 0, page)).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/^body\/messages\/2\/associations names DEAL: a PRODUCT has no associations/),
      });

      expect((await useCase.view(tenant, 'eu', importStartedAt)).objectTypes.PRODUCT).toMatchObject({ pagesReceived: 0, itemsReceived: 0 });
    });

    it('when a page is sent again, then it replaces the first: it counts once, with its new items', async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      await useCase.putPage(tenant, 'default', importStartedAt, 'CONTACT', 1, items(3));
      await useCase.putPage(tenant, 'default', importStartedAt, 'CONTACT', 1, items(5));

      expect((await useCase.view(tenant, 'default', importStartedAt)).objectTypes.CONTACT).toMatchObject({ pagesReceived: 1, itemsReceived: 5 });
      expect(await useCase.getPage(tenant, 'default', importStartedAt, 'CONTACT', 1)).toEqual(items(5));
    });

    it('when the end counts do not match, then a 400 gives both counts and the type stays open', async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      await useCase.putPage(tenant, 'default', importStartedAt, 'DEAL', 1, items(2));

      await expect(useCase.end(tenant, 'default', importStartedAt, 'DEAL', { pageCount: 2, itemCount: 5 })).rejects.toMatchObject({
        status: 400,
        message:
          'Counts of DEAL do not match: the end says 2 pages and 5 items, the service received 1 pages and 2 items; send the missing pages, then the end again',
      });
      expect((await useCase.view(tenant, 'default', importStartedAt)).objectTypes.DEAL?.ended).toBe(false);
    });

    it('when a type has ended, then its pages and an end with other counts are refused with a 409; the same end again is done already', async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      await useCase.end(tenant, 'default', importStartedAt, 'PRODUCT', { pageCount: 0, itemCount: 0 });

      await expect(useCase.putPage(tenant, 'default', importStartedAt, 'PRODUCT', 1, items(1))).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/already ended/),
      });
      await expect(useCase.end(tenant, 'default', importStartedAt, 'PRODUCT', { pageCount: 1, itemCount: 1 })).rejects.toMatchObject({ status: 409 });
      await expect(useCase.end(tenant, 'default', importStartedAt, 'PRODUCT', { pageCount: 0, itemCount: 0 })).resolves.toBeUndefined();
    });

    it('when the last type ends, then the completion is stamped with the shared clock, which the coordinators compare it with', async () => {
      const shared = new ManageImportsUseCase(
        asRepositories({ imports, accounts, settings, stores, ecommerceInstalls }),
        broker,
        recordingLogger().logger,
        () => NOW,
        () => NOW + 5_000,
      );
      const importStartedAt = await startedWithAllEndedBut('LINE_ITEM');

      await shared.end(tenant, 'default', importStartedAt, 'LINE_ITEM', { pageCount: 0, itemCount: 0 });

      expect(await imports.find(tenant, 'default', importStartedAt)).toMatchObject({ status: 'complete', completedAt: NOW + 5_000 });
    });

    it('when the last type ends, then the import is complete, the coordinator is told, and more pages are refused', async () => {
      const importStartedAt = await startedWithAllEndedBut('LINE_ITEM');
      expect(broker.bodiesTo(TOPICS.importCompleted)).toEqual([]);

      await useCase.end(tenant, 'default', importStartedAt, 'LINE_ITEM', { pageCount: 0, itemCount: 0 });

      const found = (await imports.find(tenant, 'default', importStartedAt))!;
      expect(found).toMatchObject({ status: 'complete', completedAt: NOW });
      expect(broker.bodiesTo<ImportEventMessage>(TOPICS.importCompleted)).toEqual([{ kind: 'import-completed', importId: found.importId }]);
      await expect(useCase.putPage(tenant, 'default', importStartedAt, 'CONTACT', 9, items(1))).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/is complete; start a new one/),
      });
      // Its end sent again (the answer was lost) is done already: 204, and the coordinator is not told twice.
      await useCase.end(tenant, 'default', importStartedAt, 'LINE_ITEM', { pageCount: 0, itemCount: 0 });
      expect(broker.bodiesTo(TOPICS.importCompleted)).toHaveLength(1);
    });

    it('when telling the coordinator of a completion fails, then the end still succeeds (the periodic check releases it)', async () => {
      const importStartedAt = await startedWithAllEndedBut('CONTACT');
      broker.failNextPublishes(1);
      await expect(useCase.end(tenant, 'default', importStartedAt, 'CONTACT', { pageCount: 0, itemCount: 0 })).resolves.toBeUndefined();
      expect((await imports.find(tenant, 'default', importStartedAt))!.status).toBe('complete');
    });

    it('when an import failed, then its pages are refused with the reason', async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      await moveImport(imports, (await imports.find(tenant, 'default', importStartedAt))!.importId, {
        kind: 'failed',
        reason: 'the webhook was refused',
        at: NOW,
      });
      await expect(useCase.putPage(tenant, 'default', importStartedAt, 'CONTACT', 1, items(1))).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/failed \(the webhook was refused\)/),
      });
    });

    it("when an import, or a page of it, does not exist, or it is another application's, then a 404 says what to do", async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      await expect(useCase.getPage(tenant, 'default', importStartedAt, 'CONTACT', 1)).rejects.toMatchObject({
        status: 404,
        message: `No page 1 of CONTACT in import ${importStartedAt}`,
      });
      await expect(useCase.view(tenant, 'default', importStartedAt + 5)).rejects.toMatchObject({
        status: 404,
        message: expect.stringMatching(/start one with POST/),
      });
      await expect(useCase.view({ ...tenant, appId: 'another-app' }, 'default', importStartedAt)).rejects.toMatchObject({ status: 404 });
    });

    it('when the webhook was tried, then the view lists its attempts', async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      const { importId } = (await imports.find(tenant, 'default', importStartedAt))!;
      await imports.recordAttempt(importId, { attempt: 1, at: NOW + 5, url: 'https://shop.example.com/import', status: 500, error: null, durationMs: 12 });

      expect((await useCase.view(tenant, 'default', importStartedAt)).webhook).toEqual({
        uri: 'https://shop.example.com/import',
        attempts: [{ attempt: 1, at: NOW + 5, status: 500, error: null, durationMs: 12 }],
        problem: null,
      });
    });
  });

  describe('its release', () => {
    it('when the release of a complete import failed, then its view and the console list say why and how often in a row, and no longer once it is released', async () => {
      const { importStartedAt } = await useCase.start(tenant, 'default', 'v1');
      const found = (await imports.find(tenant, 'default', importStartedAt))!;
      const ends = Object.keys(found.types).map((objectType) => ({
        kind: 'end-received' as const,
        objectType: objectType as ObjectType,
        pageCount: 0,
        itemCount: 0,
        at: NOW,
      }));
      await moveImport(
        imports,
        found.importId,
        ...ends,
        { kind: 'release-claimed', at: NOW + 1, staleBefore: NOW, owner: 'r1' },
        { kind: 'release-dropped', owner: 'r1', reason: 'publishing failed: the channel closed', at: NOW + 2 },
      );

      expect(await useCase.view(tenant, 'default', importStartedAt)).toMatchObject({
        status: 'complete',
        releasedAt: null,
        releaseProblem: { reason: 'publishing failed: the channel closed', at: NOW + 2, tries: 1, since: NOW + 2 },
      });
      const listed = async () => (await useCase.list({ portalId: tenant.portalId, appId: tenant.appId }, { offset: 0, limit: 10 })).results;
      expect(await listed()).toEqual([expect.objectContaining({ importStartedAt, releaseProblem: expect.objectContaining({ tries: 1 }) })]);

      await moveImport(
        imports,
        found.importId,
        { kind: 'release-claimed', at: NOW + 40, staleBefore: NOW + 10, owner: 'r2' },
        { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: NOW + 41, owner: 'r2' },
      );
      expect(await useCase.view(tenant, 'default', importStartedAt)).toMatchObject({ releasedAt: NOW + 41, releaseProblem: null });
      expect(await listed()).toEqual([expect.objectContaining({ importStartedAt, releaseProblem: null })]);
    });
  });

  describe('requests of one import at once', () => {
    /** The fake, where another replica's write lands just before each of this one's first `rivals` writes. */
    class ContendedImports extends FakeImportRepository {
      private rivalWriting = false;
      constructor(
        private rivals: number,
        private readonly rival: (imports: FakeImportRepository, importId: string) => Promise<unknown>,
      ) {
        super();
      }
      override async compareAndSet(importId: string, expectedRev: number, next: ImportState): Promise<boolean> {
        if (this.rivals > 0 && !this.rivalWriting) {
          this.rivals--;
          this.rivalWriting = true;
          await this.rival(this, importId).finally(() => (this.rivalWriting = false));
        }
        return super.compareAndSet(importId, expectedRev, next);
      }
    }
    const withImports = (contended: FakeImportRepository) =>
      new ManageImportsUseCase(
        asRepositories({ imports: contended, accounts, settings, stores, ecommerceInstalls }),
        broker,
        recordingLogger().logger,
        () => NOW,
      );

    it('when another replica counts a page between the read and the write of this one, then this page is counted on a fresh read, and both are', async () => {
      let rivalPage = 100;
      const contended = new ContendedImports(1, (rivalImports, importId) =>
        moveImport(rivalImports, importId, { kind: 'page-received', objectType: 'CONTACT', pageNumber: rivalPage++, itemCount: 5 }),
      );
      const replica = withImports(contended);
      const { importStartedAt } = await replica.start(tenant, 'default', 'v1');

      await replica.putPage(tenant, 'default', importStartedAt, 'CONTACT', 1, items(3));

      expect((await replica.view(tenant, 'default', importStartedAt)).objectTypes.CONTACT).toMatchObject({ pagesReceived: 2, itemsReceived: 8 });
    });

    it('when the type ends between the read and the write of a page, then the page is refused with a 409 and not counted', async () => {
      const contended = new ContendedImports(1, (rivalImports, importId) =>
        moveImport(rivalImports, importId, { kind: 'end-received', objectType: 'DEAL', pageCount: 0, itemCount: 0, at: NOW }),
      );
      const replica = withImports(contended);
      const { importStartedAt } = await replica.start(tenant, 'default', 'v1');

      await expect(replica.putPage(tenant, 'default', importStartedAt, 'DEAL', 1, items(3))).rejects.toMatchObject({
        status: 409,
        message: `DEAL of import ${importStartedAt} has already ended; pages and ends after the end are refused`,
      });
      expect((await replica.view(tenant, 'default', importStartedAt)).objectTypes.DEAL).toMatchObject({ pagesReceived: 0, ended: true });
    });

    it('when every write of a request loses to another, then a 503 asks to send it again and nothing of it is counted', async () => {
      let rivalPage = 100;
      const contended = new ContendedImports(1_000, (rivalImports, importId) =>
        moveImport(rivalImports, importId, { kind: 'page-received', objectType: 'PRODUCT', pageNumber: rivalPage++, itemCount: 1 }),
      );
      const replica = withImports(contended);
      const { importStartedAt } = await replica.start(tenant, 'default', 'v1');

      await expect(replica.end(tenant, 'default', importStartedAt, 'CONTACT', { pageCount: 0, itemCount: 0 })).rejects.toMatchObject({
        status: 503,
        message: `Import ${importStartedAt} was changed by other requests each of the 20 times this one tried; send it again`,
      });
      expect((await replica.view(tenant, 'default', importStartedAt)).objectTypes.CONTACT).toMatchObject({ ended: false });
    });
  });
});
