import { type CatchUpMessage, type LookupsChange, type Tenant, TOPICS } from '@ecomm-sync/contracts';
import { CrmRequestError, type CrmPort } from '@ecomm-sync/crm-client';
import { ECOMM_DEAL_STAGES, ECOMM_PIPELINE_LABEL, SYNC_KEY_PROPERTY, crmProperty } from '@ecomm-sync/domain';
import {
  anAppTenant,
  aPortal,
  asRepositories,
  aStoredSettings,
  aTenant,
  FakeAccountRepository,
  FakeBroker,
  FakeCrm,
  FakeEcommerceInstallRepository,
  FakePortalRepository,
  FakeSettingsRepository,
  FakeStoreRepository,
  FakeSyncErrorRepository,
  recordingLogger,
} from '@ecomm-sync/testing';
import { ManageInstallUseCase } from './manage-install.use-case';

const NOW = 1_750_000_000_000;

describe('ManageInstallUseCase', () => {
  let portals: FakePortalRepository;
  let accounts: FakeAccountRepository;
  let ecommerceInstalls: FakeEcommerceInstallRepository;
  let stores: FakeStoreRepository;
  let settings: FakeSettingsRepository;
  let broker: FakeBroker;
  let crm: FakeCrm;
  let crmPort: CrmPort;
  /** The tenants every replica was told to forget, one entry a broadcast (with whether the portal's CRM was set up). */
  let lookupsChanged: LookupsChange[];
  let installed: Tenant[];
  let useCase: ManageInstallUseCase;
  let tenant: Tenant;
  let syncErrors: FakeSyncErrorRepository;

  beforeEach(() => {
    portals = new FakePortalRepository();
    accounts = new FakeAccountRepository();
    ecommerceInstalls = new FakeEcommerceInstallRepository();
    stores = new FakeStoreRepository();
    settings = new FakeSettingsRepository();
    syncErrors = new FakeSyncErrorRepository();
    broker = new FakeBroker();
    crm = new FakeCrm();
    crmPort = crm;
    lookupsChanged = [];
    installed = [];
    useCase = new ManageInstallUseCase(
      asRepositories({ portals, accounts, ecommerceInstalls, stores, settings, syncErrors }),
      broker,
      recordingLogger().logger,
      {
        crmFor: () => crmPort,
        onLookupsChanged: async (change) => {
          lookupsChanged.push(change);
        },
        onInstalled: async (done) => {
          installed.push(done);
        },
        clock: () => NOW,
      },
    );
    tenant = aTenant({ portalId: portals.put(aPortal()).portalId });
  });

  const catchUps = () => broker.bodiesTo<CatchUpMessage>(TOPICS.catchUp);

  describe('v1 install', () => {
    it('when a tenant installs, then its CRM gets the pipeline and properties, its store default exists, it is installed, and what waited is released', async () => {
      await useCase.install(tenant);

      const pipelines = await crm.listDealPipelines();
      expect(pipelines.map((pipeline) => pipeline.label)).toEqual([ECOMM_PIPELINE_LABEL]);
      // The ids the CRM gave the pipeline and its stages are kept with the portal, for its connection.
      const stageIds = Object.fromEntries(pipelines[0].stages.map((stage) => [ECOMM_DEAL_STAGES.find((one) => one.label === stage.label)!.id, stage.id]));
      expect((await portals.findById(tenant.portalId))?.ecommPipeline).toEqual({ pipelineId: pipelines[0].id, stageIds, forConnection: 0 });
      expect(Object.keys(stageIds)).toHaveLength(ECOMM_DEAL_STAGES.length);
      expect((await crm.listProperties('DEAL')).map((property) => property.name)).toContain(SYNC_KEY_PROPERTY);
      expect(await stores.list(tenant)).toEqual([{ id: 'default', label: 'Custom' }]);
      expect(await ecommerceInstalls.find(tenant)).toMatchObject({ installCompleted: true, installedAt: NOW });
      expect(catchUps()).toEqual([{ kind: 'catch-up', portalId: tenant.portalId, appId: null, errorType: 'PORTAL_NOT_SYNC_ENABLED' }]);
      expect(installed).toEqual([tenant]);
      expect(lookupsChanged).toEqual([{ tenant, crmSetUp: true }]);
    });

    it("when an application installs, then its store default is labelled with the application's name", async () => {
      const app = anAppTenant({ portalId: tenant.portalId });
      await accounts.createApplication({
        appId: app.appId,
        developerId: 1,
        name: 'Shopware Connector',
        clientId: 'c',
        clientSecret: 's',
        sealedSecret: 'v1.s',
      });
      await accounts.install(app.portalId, app.appId, NOW);
      await useCase.install(app);
      expect(await stores.find(app, 'default')).toEqual({ id: 'default', label: 'Shopware Connector' });
    });

    it.each([
      ['v1 install', (app: Tenant) => useCase.install(app)],
      ['first store put', (app: Tenant) => useCase.putStore(app, { id: 'web', label: 'Web' })],
    ])('when the application is removed from the portal while its %s runs, then what it wrote goes too and it answers 404', async (_name, run) => {
      const app = anAppTenant({ portalId: tenant.portalId });
      await accounts.install(app.portalId, app.appId, NOW);
      const removedMeanwhile: Tenant[] = [];
      const racing = new ManageInstallUseCase(
        asRepositories({ portals, accounts, ecommerceInstalls, stores, settings, syncErrors }),
        broker,
        recordingLogger().logger,
        {
          crmFor: () => crmPort,
          onLookupsChanged: async () => undefined,
          // The removal runs while the CRM is set up: its clean-up came before this install's writes.
          onInstalled: async () => void (await accounts.removeInstall(app.portalId, app.appId)),
          onRemovedMeanwhile: async (gone) => void removedMeanwhile.push(gone),
          clock: () => NOW,
        },
      );
      useCase = racing;

      await expect(run(app)).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/was removed from portal .* while this request ran/) });

      expect(await stores.list(app)).toEqual([]);
      expect((await ecommerceInstalls.find(app)).installCompleted).toBe(false);
      expect(removedMeanwhile).toEqual([app]);
    });

    it('when a tenant installs twice, then nothing is duplicated, the store default is made once, and the import on install is pending once', async () => {
      await useCase.install(tenant);
      await useCase.install(tenant);
      expect(await crm.listDealPipelines()).toHaveLength(1);
      expect(await stores.list(tenant)).toHaveLength(1);
      expect(lookupsChanged).toEqual([{ tenant, crmSetUp: true }]);
      expect(installed).toEqual([tenant, tenant]);
      expect([await ecommerceInstalls.takeImportOnInstall(tenant), await ecommerceInstalls.takeImportOnInstall(tenant)]).toEqual([true, false]);
    });

    it('when a tenant installs again after an uninstall, then its import on install is pending again', async () => {
      await useCase.install(tenant);
      await ecommerceInstalls.takeImportOnInstall(tenant);
      await useCase.uninstall(tenant);
      await useCase.install(tenant);
      expect(await ecommerceInstalls.takeImportOnInstall(tenant)).toBe(true);
    });

    it('when the portal does not exist, then a 404 names it and nothing is installed', async () => {
      const unknown = aTenant();
      await expect(useCase.install(unknown)).rejects.toMatchObject({ status: 404, message: `No portal ${unknown.portalId}` });
      expect((await ecommerceInstalls.find(unknown)).installCompleted).toBe(false);
    });

    it.each([
      [
        'has a foreign pipeline named ecommerce',
        async (): Promise<unknown> => void (await crm.createDealPipeline({ label: 'eCommerce orders', displayOrder: 1, stages: [] })),
        409,
        /pipeline named "eCommerce orders"/,
      ],
      [
        'has a sync key property that is not unique',
        async (): Promise<unknown> => crm.createProperty('CONTACT', crmProperty(SYNC_KEY_PROPERTY, 'x', 'string', { groupName: 'contactinformation' })),
        409,
        /another definition/,
      ],
      [
        'fails',
        async (): Promise<void> => {
          crmPort = Object.assign(Object.create(crm) as CrmPort, { listDealPipelines: async () => Promise.reject(new CrmRequestError('bad gateway', 502)) });
        },
        502,
        /.+/,
      ],
    ] as const)('when the CRM %s, then the install is refused with why, and the tenant is not installed', async (_case, arrange, status, message) => {
      await arrange();
      await expect(useCase.install(tenant)).rejects.toMatchObject({ status, message: expect.stringMatching(message) });
      expect((await ecommerceInstalls.find(tenant)).installCompleted).toBe(false);
      expect(catchUps()).toEqual([]);
    });

    it('when a tenant uninstalls, then syncing is off, its stores are gone and every replica is told', async () => {
      await useCase.install(tenant);
      lookupsChanged = [];

      await useCase.uninstall(tenant);

      expect(await ecommerceInstalls.find(tenant)).toMatchObject({ installCompleted: false, uninstalledAt: NOW });
      expect(await stores.list(tenant)).toEqual([]);
      expect(lookupsChanged).toEqual([{ tenant, crmSetUp: false }]);
    });

    it('when the status is read, then it says whether the install is done and the settings enabled', async () => {
      expect(await useCase.status(tenant)).toEqual({ installCompleted: false, ecommSettingsEnabled: false });
      await useCase.install(tenant);
      const { rev: _rev, ...stored } = aStoredSettings({ enabled: true });
      await settings.put(tenant, stored);
      expect(await useCase.status(tenant)).toEqual({ installCompleted: true, ecommSettingsEnabled: true });
    });
  });

  describe('v2 stores', () => {
    it("when a tenant's first store is put, then it installs with that store and the store default", async () => {
      expect(await useCase.putStore(tenant, { id: 'eu', label: 'Europe' })).toEqual({ id: 'eu', label: 'Europe' });

      expect((await stores.list(tenant)).map((store) => store.id)).toEqual(['default', 'eu']);
      expect((await ecommerceInstalls.find(tenant)).installCompleted).toBe(true);
      expect(catchUps()).toHaveLength(1);
      expect(installed).toEqual([tenant]); // the default alert rules, as a v1 install's
    });

    it('when the release after the first store fails, then the put sent again releases what was held', async () => {
      const publish = broker.publish.bind(broker);
      let failures = 1;
      broker.publish = async (topic, body, options) => {
        if (topic === TOPICS.catchUp && failures-- > 0) throw new Error('the broker went away');
        return publish(topic, body, options);
      };
      await expect(useCase.putStore(tenant, { id: 'eu', label: 'Europe' })).rejects.toThrow('the broker went away');
      expect((await ecommerceInstalls.find(tenant)).installCompleted).toBe(true);

      await useCase.putStore(tenant, { id: 'eu', label: 'Europe' });

      expect(catchUps()).toEqual([{ kind: 'catch-up', portalId: tenant.portalId, appId: null, errorType: 'PORTAL_NOT_SYNC_ENABLED' }]);
    });

    it('when a tenant installs through its first store, then no import on install is pending: a v1 install later starts none', async () => {
      await useCase.putStore(tenant, { id: 'eu', label: 'Europe' });
      await useCase.install(tenant);
      expect(await ecommerceInstalls.takeImportOnInstall(tenant)).toBe(false);
    });

    it('when an installed tenant puts another store, then it is saved and the install stays as it was (its first date kept)', async () => {
      await useCase.putStore(tenant, { id: 'eu', label: 'Europe' });
      await useCase.putStore(tenant, { id: 'us', label: 'US' });
      expect(await ecommerceInstalls.find(tenant)).toMatchObject({ installCompleted: true, installedAt: NOW });
      expect(await useCase.getStore(tenant, 'us')).toEqual({ id: 'us', label: 'US' });
      // Each put sets the portal's CRM up again: the replicas drop its CRM client too.
      expect(lookupsChanged).toEqual([
        { tenant, crmSetUp: true },
        { tenant, crmSetUp: true },
      ]);
    });

    it('when the setup is refused, then the store is not saved', async () => {
      await crm.createDealPipeline({ label: 'Ecommerce', displayOrder: 1, stages: [] });
      await expect(useCase.putStore(tenant, { id: 'eu', label: 'Europe' })).rejects.toMatchObject({ status: 409 });
      expect(await stores.list(tenant)).toEqual([]);
    });

    it('when an installed tenant has no store default (installed before it was made), then reading makes it', async () => {
      await ecommerceInstalls.markInstalled(tenant, NOW);
      await stores.upsert(tenant, { id: 'eu', label: 'Europe' });

      expect((await useCase.listStores(tenant)).map((store) => store.id)).toEqual(['default', 'eu']);
      expect(await stores.find(tenant, 'default')).toEqual({ id: 'default', label: 'Custom' });
    });

    it('when a tenant that is not installed reads store default, then there is none: a 404 says how to define stores', async () => {
      expect(await useCase.listStores(tenant)).toEqual([]);
      await expect(useCase.getStore(tenant, 'default')).rejects.toMatchObject({
        status: 404,
        message: 'No store "default"; define it with PUT /extensions/ecomm/v2/stores',
      });
    });

    it('when store default of an installed tenant is deleted, then a 409 says to uninstall; another store goes, and a missing one is a 404', async () => {
      await useCase.putStore(tenant, { id: 'eu', label: 'Europe' });

      await expect(useCase.deleteStore(tenant, 'default')).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/uninstall with POST/) });
      lookupsChanged = [];
      await useCase.deleteStore(tenant, 'eu');
      expect((await stores.list(tenant)).map((store) => store.id)).toEqual(['default']);
      expect(lookupsChanged).toEqual([{ tenant, crmSetUp: false }]); // only its stores: the CRM was not touched
      await expect(useCase.deleteStore(tenant, 'eu')).rejects.toMatchObject({ status: 404, message: 'No store "eu"' });
    });

    it("when a store is deleted, then its open errors are resolved (nothing more is sent for it), and another store's stay open", async () => {
      await useCase.putStore(tenant, { id: 'eu', label: 'Europe' });
      await useCase.putStore(tenant, { id: 'us', label: 'US' });
      const error = { externalObjectId: 'c1', rev: 1, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS' as const, details: 'x', changedAt: 1, erroredAt: 2 };
      for (const storeId of ['eu', 'us']) await syncErrors.record({ tenant, storeId, objectType: 'CONTACT' }, [error]);

      await useCase.deleteStore(tenant, 'eu');

      const status = async (storeId: string) =>
        (await syncErrors.listForObject({ ...tenant, storeId, objectType: 'CONTACT', externalObjectId: 'c1' }, true)).map((one) => one.status);
      expect([await status('eu'), await status('us')]).toEqual([['RESOLVED'], ['OPEN']]);
    });
  });
});
