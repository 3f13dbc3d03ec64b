import type { Tenant } from '@ecomm-sync/contracts';
import { CrmRequestError, type CrmPort } from '@ecomm-sync/crm-client';
import { anAppTenant, anObjectSync, asRepositories, aSyncBatch, fakeConsoleReadModels, FakeCrm } from '@ecomm-sync/testing';
import { ConsoleActivityUseCase, ConsoleReportUseCase, REPORT_LIMIT } from './console-report.use-case';

const text = (name: string) => ({ name, label: name, type: 'string' });
const number = (name: string) => ({ name, label: name, type: 'number' });

describe('ConsoleReportUseCase', () => {
  let world: ReturnType<typeof fakeConsoleReadModels>;
  let tenant: Tenant & { appId: string };
  let crm: FakeCrm;
  let crmPort: CrmPort | null;
  let useCase: ConsoleReportUseCase;

  beforeEach(() => {
    world = fakeConsoleReadModels();
    tenant = anAppTenant();
    crm = new FakeCrm({
      properties: { DEAL: [text('dealstage'), number('amount')], LINE_ITEM: [text('name'), number('price'), number('quantity'), number('amount')] },
    });
    crmPort = crm;
    useCase = new ConsoleReportUseCase(asRepositories({ consoleOverview: world.consoleOverview, consoleReport: world.consoleReport }), async (portalId) =>
      portalId === tenant.portalId ? crmPort : null,
    );
  });

  /** Objects written to the CRM and linked in the store, as the applier leaves them. */
  const linked = async (storeId: string, objectType: 'DEAL' | 'LINE_ITEM', objects: Record<string, string>[]) => {
    const created = await crm.batchCreate(
      objectType,
      objects.map((properties) => ({ properties })),
    );
    created.forEach(({ id }) => world.objectSyncs.put({ tenant, storeId, objectType }, anObjectSync({ externalObjectId: `${objectType}-${id}`, crmId: id })));
  };

  it("when a store has linked deals and line items, then its report has revenue by stage, abandoned checkouts and top products from the CRM's values", async () => {
    await linked('web', 'DEAL', [
      { dealstage: 'checkout_completed', amount: '100.50' },
      { dealstage: 'checkout_completed', amount: '20' },
      { dealstage: 'checkout_abandoned', amount: '30' },
    ]);
    await linked('web', 'LINE_ITEM', [
      { name: 'Mug', price: '5', quantity: '3' },
      { name: 'Shirt', amount: '40', quantity: '1' },
    ]);
    await world.stores.upsert(tenant, { id: 'web', label: 'Web shop' });

    const { stores } = await useCase.report({ portalId: tenant.portalId });

    expect(stores).toEqual([
      {
        portalId: tenant.portalId,
        appId: tenant.appId,
        storeId: 'web',
        label: 'Web shop',
        revenueByStage: [
          { stage: 'checkout_abandoned', label: 'Checkout Abandoned', deals: 1, revenue: 30 },
          { stage: 'checkout_completed', label: 'Checkout Completed', deals: 2, revenue: 120.5 },
        ],
        abandonedCheckouts: { count: 1, value: 30 },
        topProducts: [
          { product: 'Shirt', quantity: 1, revenue: 40 },
          { product: 'Mug', quantity: 3, revenue: 15 },
        ],
        partial: false,
      },
    ]);
  });

  it('when a store is asked for, then only it is reported; a store with no deals or line items in the CRM has no report', async () => {
    await linked('web', 'DEAL', [{ dealstage: 'processed', amount: '1' }]);
    await linked('pos', 'DEAL', [{ dealstage: 'processed', amount: '2' }]);
    world.objectSyncs.put({ tenant, storeId: 'contacts-only', objectType: 'CONTACT' }, anObjectSync({ crmId: 99 }));

    expect((await useCase.report({ portalId: tenant.portalId }, 'pos')).stores.map((store) => [store.storeId, store.label])).toEqual([['pos', 'pos']]);
    expect((await useCase.report({ portalId: tenant.portalId })).stores.map((store) => store.storeId)).toEqual(['pos', 'web']);
  });

  it('when the store default has no label, then it reads as Default', async () => {
    await linked('default', 'DEAL', [{ dealstage: 'processed', amount: '1' }]);
    expect((await useCase.report({ portalId: tenant.portalId })).stores[0].label).toBe('Default');
  });

  it('when the scope is every portal of an application, then the report asks for one portal and reads no CRM', async () => {
    await linked('web', 'DEAL', [{ dealstage: 'checkout_completed', amount: '10' }]);
    const reads = jest.spyOn(crm, 'batchRead');

    await expect(useCase.report({ appId: tenant.appId, portalIds: [tenant.portalId] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^portalId is required/),
    });
    expect(reads).not.toHaveBeenCalled();
  });

  it('when a store links more deals than one report reads, then the report says it is partial', async () => {
    for (let crmId = 1; crmId <= REPORT_LIMIT + 1; crmId++)
      world.objectSyncs.put({ tenant, storeId: 'web', objectType: 'DEAL' }, anObjectSync({ externalObjectId: `d${crmId}`, crmId }));
    const [report] = (await useCase.report({ portalId: tenant.portalId })).stores;
    expect(report.partial).toBe(true);
  });

  it("when the portal's CRM is not known, then its stores are left out", async () => {
    await linked('web', 'DEAL', [{ dealstage: 'processed', amount: '1' }]);
    crmPort = null;
    expect(await useCase.report({ portalId: tenant.portalId })).toEqual({ stores: [] });
  });

  it('when the CRM cannot be read, then a 502 says it was the CRM and to try again', async () => {
    await linked('web', 'DEAL', [{ dealstage: 'processed', amount: '1' }]);
    crmPort = Object.assign(Object.create(crm) as CrmPort, { batchRead: async () => Promise.reject(new CrmRequestError('no answer', 0)) });
    await expect(useCase.report({ portalId: tenant.portalId })).rejects.toMatchObject({
      status: 502,
      message: 'The CRM could not be read for the report: no answer; try again shortly',
    });
  });
});

describe('ConsoleActivityUseCase', () => {
  it('when messages were received and objects applied in the last hour, then they are counted in five-minute buckets, older ones left out', async () => {
    const world = fakeConsoleReadModels();
    const tenant = anAppTenant();
    const now = 1_750_000_200_000;
    const bucket = 5 * 60_000;
    const lastBucket = Math.floor(now / bucket) * bucket;
    await world.rawMessages.append(aSyncBatch({ tenant, receivedAt: lastBucket + 1 }));
    await world.rawMessages.append(aSyncBatch({ tenant, receivedAt: lastBucket - 1 }));
    await world.rawMessages.append(aSyncBatch({ tenant, receivedAt: now - 2 * 60 * 60_000 }));
    world.objectSyncs.put({ tenant, storeId: 'default', objectType: 'CONTACT' }, anObjectSync({ lastProcessedAt: lastBucket + 2 }));

    const activity = await new ConsoleActivityUseCase(asRepositories({ consoleActivity: world.consoleActivity }), () => now).activity(
      { appId: tenant.appId, portalIds: [tenant.portalId] },
      'hour',
    );

    expect(activity).toMatchObject({ window: 'hour', bucketMs: bucket, partial: false });
    expect(activity.buckets).toHaveLength(12);
    expect(activity.buckets.slice(-2)).toEqual([
      { from: lastBucket - bucket, received: 1, applied: 0 },
      { from: lastBucket, received: 1, applied: 1 },
    ]);
    expect(activity.buckets.reduce((sum, entry) => sum + entry.received, 0)).toBe(2);
  });
});
