import type { Tenant } from '@ecomm-sync/contracts';
import { emptyObjectState, errorAdvice } from '@ecomm-sync/domain';
import { aMappedChange, anAppTenant, anObjectSync, asRepositories, FakeAccountRepository, fakeConsoleReadModels } from '@ecomm-sync/testing';
import { ConsoleReadUseCase } from './console-read.use-case';

const NOW = 1_750_000_000_000;

describe('ConsoleReadUseCase', () => {
  let world: ReturnType<typeof fakeConsoleReadModels>;
  let app: Tenant & { appId: string };
  let direct: Tenant;
  let useCase: ConsoleReadUseCase;
  let accounts: FakeAccountRepository;

  beforeEach(() => {
    world = fakeConsoleReadModels();
    app = anAppTenant();
    direct = { portalId: app.portalId, appId: null };
    accounts = new FakeAccountRepository();
    useCase = new ConsoleReadUseCase(asRepositories({ consoleOverview: world.consoleOverview, syncErrors: world.syncErrors, accounts }), () => NOW);
  });

  it("when installs are listed, then a portal sees its applications, an integrator its application's portals, each with the application's name", async () => {
    await accounts.createApplication({ appId: '7', developerId: 1, name: 'Shop bridge', clientId: 'c-7', clientSecret: 's', sealedSecret: 'sealed' });
    await accounts.install(101, '7', NOW);
    await accounts.install(102, '7', NOW);
    await accounts.install(101, '8', NOW); // an application the accounts do not know: named by its id

    expect((await useCase.installs({ portalId: 101 })).results.map(({ portalId, appId, appName }) => ({ portalId, appId, appName }))).toEqual([
      { portalId: 101, appId: '7', appName: 'Shop bridge' },
      { portalId: 101, appId: '8', appName: '8' },
    ]);
    expect((await useCase.installs({ appId: '7' })).results.map(({ portalId }) => portalId).sort()).toEqual([101, 102]);
  });

  const anError = (externalObjectId: string, erroredAt: number, type: 'UNKNOWN_ERROR' | 'INVALID_EMAIL_ADDRESS' = 'UNKNOWN_ERROR') => ({
    externalObjectId,
    rev: 1,
    settingsRev: 1,
    type,
    details: `${externalObjectId} failed`,
    changedAt: erroredAt - 10,
    erroredAt,
  });

  describe('overview', () => {
    it('when a portal has objects in several stores, then each store shows its label, its counts per type and its open errors', async () => {
      await world.objectStates.insertNew(
        { tenant: app, storeId: 'eu', objectType: 'CONTACT' },
        ['a', 'b', 'c'].map((externalObjectId) => ({ externalObjectId, state: emptyObjectState() })),
      );
      world.objectSyncs.put({ tenant: app, storeId: 'eu', objectType: 'CONTACT' }, anObjectSync({ externalObjectId: 'a', crmId: 1, lastProcessedAt: NOW - 5 }));
      world.objectSyncs.put(
        { tenant: app, storeId: 'eu', objectType: 'CONTACT' },
        anObjectSync({ externalObjectId: 'b', crmId: null, lastProcessedAt: NOW - 9 }),
      );
      await world.syncErrors.record({ tenant: app, storeId: 'eu', objectType: 'CONTACT' }, [anError('b', NOW)]);
      await world.waitingObjects.wait(
        { tenant: app, storeId: 'eu', objectType: 'LINE_ITEM' },
        [{ change: aMappedChange({ externalObjectId: 'li' }), waitingFor: ['DEAL:d'] }],
        NOW,
        1_000,
      );
      await world.stores.upsert(app, { id: 'eu', label: 'Europe' });
      await world.stores.upsert(direct, { id: 'default', label: 'Custom' });

      const { stores } = await useCase.overview({ portalId: app.portalId });

      const eu = stores.find((store) => store.storeId === 'eu')!;
      expect(eu).toMatchObject({ appId: app.appId, label: 'Europe', openErrors: 1, openErrorsByType: { UNKNOWN_ERROR: 1 }, lastProcessedAt: NOW - 5 });
      expect(eu.objectTypes.CONTACT).toEqual({ received: 3, applied: 1, withOpenErrors: 1, waiting: 0, deleted: 0, notProcessed: 1 });
      expect(eu.objectTypes.LINE_ITEM).toMatchObject({ waiting: 1 });
      expect(stores.find((store) => store.appId === null)).toMatchObject({ storeId: 'default', label: 'Custom', openErrors: 0 });
    });

    it("when the scope is one application, then another tenant's stores of the portal are not shown", async () => {
      await world.stores.upsert(app, { id: 'eu', label: 'Europe' });
      await world.stores.upsert(direct, { id: 'default', label: 'Custom' });
      expect((await useCase.overview({ appId: app.appId, portalIds: [app.portalId] })).stores.map((store) => store.storeId)).toEqual(['eu']);
    });
  });

  describe('errors', () => {
    beforeEach(async () => {
      await world.syncErrors.record({ tenant: app, storeId: 'default', objectType: 'CONTACT' }, [anError('a', NOW - 30, 'INVALID_EMAIL_ADDRESS')]);
      await world.syncErrors.record({ tenant: app, storeId: 'eu', objectType: 'DEAL' }, [anError('b', NOW - 20)]);
      await world.syncErrors.record({ tenant: direct, storeId: 'default', objectType: 'CONTACT' }, [anError('c', NOW - 10)]);
      await world.syncErrors.resolve({ tenant: app, storeId: 'default', objectType: 'CONTACT' }, ['a'], NOW);
    });

    it('when the errors page is read without a status, then open and resolved errors come newest first, each with its advice', async () => {
      const page = await useCase.errors({ portalId: app.portalId }, { offset: 0, limit: 10 });

      expect(page.results.map((error) => [error.externalObjectId, error.status])).toEqual([
        ['c', 'OPEN'],
        ['b', 'OPEN'],
        ['a', 'RESOLVED'],
      ]);
      expect(page.results[2]).toEqual({
        portalId: app.portalId,
        appId: app.appId,
        storeId: 'default',
        objectType: 'CONTACT',
        externalObjectId: 'a',
        changedAt: NOW - 40,
        erroredAt: NOW - 30,
        type: 'INVALID_EMAIL_ADDRESS',
        details: 'a failed',
        status: 'RESOLVED',
        ...errorAdvice('INVALID_EMAIL_ADDRESS'),
      });
      expect(page).toMatchObject({ offset: 0, limit: 10, hasMore: false });
    });

    it.each([
      ['open ones', { status: 'OPEN' as const }, ['c', 'b']],
      ['resolved ones', { status: 'RESOLVED' as const }, ['a']],
      ['one store', { storeId: 'eu' }, ['b']],
      ['one object type', { objectType: 'CONTACT' as const }, ['c', 'a']],
      ['one error type', { errorType: 'INVALID_EMAIL_ADDRESS' as const }, ['a']],
    ])('when the errors page asks for %s, then only those come', async (_case, filter, expected) => {
      const page = await useCase.errors({ portalId: app.portalId }, { offset: 0, limit: 10, ...filter });
      expect(page.results.map((error) => error.externalObjectId)).toEqual(expected);
    });

    it('when the errors page is paged, then it says whether more follow, and a tenant scope sees its own only', async () => {
      expect(await useCase.errors({ portalId: app.portalId }, { offset: 0, limit: 2 })).toMatchObject({ hasMore: true, offset: 0, limit: 2 });
      expect((await useCase.errors({ portalId: app.portalId }, { offset: 2, limit: 2 })).results.map((error) => error.externalObjectId)).toEqual(['a']);
      expect((await useCase.errors({ portalId: app.portalId, appId: null }, { offset: 0, limit: 10 })).results.map((error) => error.externalObjectId)).toEqual([
        'c',
      ]);
    });
  });
});
