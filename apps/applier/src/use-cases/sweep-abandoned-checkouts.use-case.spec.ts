import type { Tenant } from '@ecomm-sync/contracts';
import { CrmPartialFailure, CrmRequestError, currentSendingTenant } from '@ecomm-sync/crm-client';
import { ABANDONED_STAGE, PENDING_STAGE } from '@ecomm-sync/domain';
import {
  aPortal,
  asRepositories,
  FakeCheckoutRepository,
  FakeCrm,
  FakeEcommerceInstallRepository,
  FakePortalRepository,
  recordingLogger,
} from '@ecomm-sync/testing';
import { CrmDirectory } from './crm-directory';
import { SWEEP_LEASE, SweepAbandonedCheckoutsUseCase, type SweepOptions } from './sweep-abandoned-checkouts.use-case';

const DAY = 24 * 60 * 60 * 1000;
const NOW = 1_750_000_000_000;
const OPTIONS: SweepOptions = { abandonAfterMs: DAY, batchSize: 100, leaseMs: 60_000 };

describe('SweepAbandonedCheckoutsUseCase', () => {
  let checkouts: FakeCheckoutRepository;
  let portals: FakePortalRepository;
  let ecommerceInstalls: FakeEcommerceInstallRepository;
  let crm: FakeCrm;
  let tenant: Tenant;
  let log: ReturnType<typeof recordingLogger>;

  beforeEach(async () => {
    log = recordingLogger();
    checkouts = new FakeCheckoutRepository();
    portals = new FakePortalRepository();
    ecommerceInstalls = new FakeEcommerceInstallRepository();
    crm = new FakeCrm({ properties: { DEAL: [{ name: 'dealstage', label: 'Stage', type: 'string' }] } });
    tenant = { portalId: portals.put(aPortal()).portalId, appId: null };
    await ecommerceInstalls.markInstalled(tenant, NOW - 2 * DAY);
  });

  const sweeper = (options: Partial<SweepOptions> = {}) =>
    new SweepAbandonedCheckoutsUseCase(
      asRepositories({ checkouts, portals, ecommerceInstalls }),
      new CrmDirectory({ clientFor: () => crm, forget: () => undefined }, { propertyCacheMs: 0 }),
      log.logger,
      { ...OPTIONS, ...options },
      () => NOW,
    );

  /** A deal the applier wrote in checkout_pending at `since`. */
  const pendingDeal = async (externalObjectId: string, since: number, owner: Tenant = tenant) => {
    const [deal] = await crm.batchCreate('DEAL', [{ properties: { dealstage: PENDING_STAGE } }]);
    await checkouts.track(owner, 'default', [{ externalObjectId, pending: true, crmId: deal.id }], since);
    return deal.id;
  };
  const stageOf = async (crmId: number) => (await crm.batchRead('DEAL', [crmId], ['dealstage']))[0].properties.dealstage;

  it('when a deal has been pending for a day, then it moves to checkout_abandoned and is forgotten; a younger one stays pending', async () => {
    const old = await pendingDeal('old', NOW - DAY);
    const young = await pendingDeal('young', NOW - DAY + 1);

    expect(await sweeper().run()).toBe(1);

    expect(await stageOf(old)).toBe(ABANDONED_STAGE);
    expect(await stageOf(young)).toBe(PENDING_STAGE);
    expect((await checkouts.due(NOW + DAY, 10)).map((checkout) => checkout.externalObjectId)).toEqual(['young']);
  });

  it('when due deals of two tenants of a portal are swept, then each tenant’s are read and moved as sent for it (its console lists them)', async () => {
    const application: Tenant = { portalId: tenant.portalId, appId: 'app-7' };
    await ecommerceInstalls.markInstalled(application, NOW - 2 * DAY);
    const own = await pendingDeal('own', NOW - DAY);
    const apps = await pendingDeal('apps', NOW - DAY, application);
    const sentFor: string[] = [];
    for (const method of ['batchRead', 'batchUpdate'] as const) {
      const original = crm[method].bind(crm) as (...args: unknown[]) => Promise<never>;
      jest.spyOn(crm, method).mockImplementation(async (...args: unknown[]) => {
        const ids = (args[1] as (number | { id: number })[]).map((input) => (typeof input === 'number' ? input : input.id));
        sentFor.push(`${method} ${ids.join(',')} for ${currentSendingTenant()?.appId ?? 'the portal'}`);
        return original(...args);
      });
    }

    expect(await sweeper().run()).toBe(2);

    expect(sentFor.sort()).toEqual(
      [`batchRead ${apps} for app-7`, `batchRead ${own} for the portal`, `batchUpdate ${apps} for app-7`, `batchUpdate ${own} for the portal`].sort(),
    );
  });

  it('when another replica takes the lease while a portal’s tenants are swept, then the next tenant’s deals are not moved and stay due, the moved ones counted and forgotten', async () => {
    const application: Tenant = { portalId: tenant.portalId, appId: 'app-7' };
    await ecommerceInstalls.markInstalled(application, NOW - 2 * DAY);
    const own = await pendingDeal('own', NOW - 2 * DAY);
    const apps = await pendingDeal('apps', NOW - DAY, application);
    let taken = false;
    const move = crm.batchUpdate.bind(crm);
    jest.spyOn(crm, 'batchUpdate').mockImplementation(async (...args) => {
      const moved = await move(...args);
      taken = true; // another replica takes the lease after the first tenant's move
      return moved;
    });
    const acquire = checkouts.acquireLease.bind(checkouts);
    jest.spyOn(checkouts, 'acquireLease').mockImplementation(async (...args) => !taken && acquire(...args));

    expect(await sweeper().run()).toBe(1);

    expect([await stageOf(own), await stageOf(apps)]).toEqual([ABANDONED_STAGE, PENDING_STAGE]);
    expect((await checkouts.due(NOW + DAY, 10)).map((checkout) => checkout.externalObjectId)).toEqual(['apps']);
    expect(log.entries.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toEqual([
      expect.stringContaining('sweep stopped: another replica took its lease'),
    ]);
  });

  it('when another replica takes the lease after a portal’s first tenant’s read, then the next tenant’s deals are neither read nor moved, and stay due', async () => {
    const application: Tenant = { portalId: tenant.portalId, appId: 'app-7' };
    await ecommerceInstalls.markInstalled(application, NOW - 2 * DAY);
    const own = await pendingDeal('own', NOW - 2 * DAY);
    const apps = await pendingDeal('apps', NOW - DAY, application);
    let taken = false;
    const read = crm.batchRead.bind(crm);
    const reads = jest.spyOn(crm, 'batchRead').mockImplementation(async (...args) => {
      const deals = await read(...args);
      taken = true; // another replica takes the lease after the first tenant's read
      return deals;
    });
    const acquire = checkouts.acquireLease.bind(checkouts);
    jest.spyOn(checkouts, 'acquireLease').mockImplementation(async (...args) => !taken && acquire(...args));

    expect(await sweeper().run()).toBe(0);

    expect(reads).toHaveBeenCalledTimes(1);
    expect([await stageOf(own), await stageOf(apps)]).toEqual([PENDING_STAGE, PENDING_STAGE]);
    expect((await checkouts.due(NOW + DAY, 10)).map((checkout) => checkout.externalObjectId).sort()).toEqual(['apps', 'own']);
  });

  it('when the CRM fails the second tenant’s move of a portal, then the first tenant’s moved deals are counted and forgotten, the second’s stay due', async () => {
    const application: Tenant = { portalId: tenant.portalId, appId: 'app-7' };
    await ecommerceInstalls.markInstalled(application, NOW - 2 * DAY);
    const own = await pendingDeal('own', NOW - 2 * DAY);
    const apps = await pendingDeal('apps', NOW - DAY, application);
    const move = crm.batchUpdate.bind(crm);
    let moves = 0;
    jest.spyOn(crm, 'batchUpdate').mockImplementation(async (...args) => {
      if (++moves === 2) throw new Error('CRM answered 502');
      return move(...args);
    });

    expect(await sweeper().run()).toBe(1);

    expect([await stageOf(own), await stageOf(apps)]).toEqual([ABANDONED_STAGE, PENDING_STAGE]);
    expect((await checkouts.due(NOW + DAY, 10)).map((checkout) => checkout.externalObjectId)).toEqual(['apps']);
  });

  it.each([
    ['refuses one of its deals (207)', 'partial'],
    ['refuses its request whole (400)', 'whole'],
  ] as const)(
    'when the CRM %s for the first tenant of a portal, then its other deal and the next tenant’s deals move; the refused one stays due',
    async (_case, refusal) => {
      const application: Tenant = { portalId: tenant.portalId, appId: 'app-7' };
      await ecommerceInstalls.markInstalled(application, NOW - 2 * DAY);
      const kept = await pendingDeal('kept', NOW - 3 * DAY);
      const refused = await pendingDeal('refused', NOW - 3 * DAY);
      const apps = await pendingDeal('apps', NOW - DAY, application);
      const move = crm.batchUpdate.bind(crm);
      jest.spyOn(crm, 'batchUpdate').mockImplementation(async (type, inputs) => {
        const index = inputs.findIndex((input) => input.id === refused);
        if (index < 0) return move(type, inputs);
        if (refusal === 'whole') throw new CrmRequestError('CRM POST failed (400): Property values were not valid', 400, 'VALIDATION_ERROR');
        const written = await move(
          type,
          inputs.filter((_input, i) => i !== index),
        );
        throw new CrmPartialFailure('CRM batch write: 1 of 2 inputs refused', written, [{ index, message: 'Property values were not valid' }]);
      });

      expect(await sweeper().run()).toBe(2);

      expect([await stageOf(kept), await stageOf(refused), await stageOf(apps)]).toEqual([ABANDONED_STAGE, PENDING_STAGE, ABANDONED_STAGE]);
      expect((await checkouts.due(NOW + DAY, 10)).map((checkout) => checkout.externalObjectId)).toEqual(['refused']);
    },
  );

  it('when a due deal moved on in the CRM meanwhile, then it is left at its stage and forgotten', async () => {
    const moved = await pendingDeal('d', NOW - 2 * DAY);
    await crm.batchUpdate('DEAL', [{ id: moved, properties: { dealstage: 'checkout_completed' } }]);

    expect(await sweeper().run()).toBe(0);

    expect(await stageOf(moved)).toBe('checkout_completed');
    expect(await checkouts.due(NOW, 10)).toEqual([]);
  });

  it("when a tenant's workflows are off, then its deals are not moved but forgotten", async () => {
    await ecommerceInstalls.markUninstalled(tenant, NOW - DAY);
    const deal = await pendingDeal('d', NOW - 2 * DAY);

    expect(await sweeper().run()).toBe(0);

    expect(await stageOf(deal)).toBe(PENDING_STAGE);
    expect(await checkouts.due(NOW, 10)).toEqual([]);
  });

  it('when the portal is disabled, then its deals are kept for a sweep after it is enabled again', async () => {
    const deal = await pendingDeal('d', NOW - 2 * DAY);
    await portals.setActive(tenant.portalId, false);

    const sweep = sweeper({ batchSize: 1 });
    expect(await sweep.run()).toBe(0);
    expect(await checkouts.due(NOW, 10)).toHaveLength(1);

    await portals.setActive(tenant.portalId, true);
    expect(await sweep.run()).toBe(1);
    expect(await stageOf(deal)).toBe(ABANDONED_STAGE);
  });

  it("when one portal's CRM fails, then its deals stay due for the next run and another portal's older-than-a-batch queue behind them still moves", async () => {
    const failing: Tenant = { portalId: portals.put(aPortal()).portalId, appId: null };
    await ecommerceInstalls.markInstalled(failing, NOW - 2 * DAY);
    const failingDeals = await Promise.all(['f1', 'f2', 'f3'].map((id, i) => pendingDeal(id, NOW - 3 * DAY + i, failing)));
    const deal = await pendingDeal('ok', NOW - 2 * DAY);
    const broken = { ...crm, batchRead: async () => Promise.reject(new Error('the CRM answered 503')) } as unknown as FakeCrm;
    const sweep = new SweepAbandonedCheckoutsUseCase(
      asRepositories({ checkouts, portals, ecommerceInstalls }),
      new CrmDirectory({ clientFor: (portal) => (portal.portalId === failing.portalId ? broken : crm), forget: () => undefined }, { propertyCacheMs: 0 }),
      recordingLogger().logger,
      { ...OPTIONS, batchSize: 2 },
      () => NOW,
    );

    expect(await sweep.run()).toBe(1);

    expect(await stageOf(deal)).toBe(ABANDONED_STAGE);
    expect((await checkouts.due(NOW, 10)).map((checkout) => checkout.externalObjectId)).toEqual(['f1', 'f2', 'f3']);
    for (const id of failingDeals) expect(await stageOf(id)).toBe(PENDING_STAGE);
  });

  it('when the replica is told to stop while one portal of a batch is swept, then the next portal is left for another run', async () => {
    const second: Tenant = { portalId: portals.put(aPortal()).portalId, appId: null };
    await ecommerceInstalls.markInstalled(second, NOW - 2 * DAY);
    const first = await pendingDeal('first', NOW - 3 * DAY);
    const later = await pendingDeal('later', NOW - 2 * DAY, second);
    let stopped: Promise<void> | undefined;
    const stopping = {
      ...crm,
      batchRead: async (...args: Parameters<FakeCrm['batchRead']>) => {
        stopped ??= sweep.stop(); // SIGTERM while the first portal is read
        return crm.batchRead(...args);
      },
      batchUpdate: (...args: Parameters<FakeCrm['batchUpdate']>) => crm.batchUpdate(...args),
    } as unknown as FakeCrm;
    const sweep = new SweepAbandonedCheckoutsUseCase(
      asRepositories({ checkouts, portals, ecommerceInstalls }),
      new CrmDirectory({ clientFor: () => stopping, forget: () => undefined }, { propertyCacheMs: 0 }),
      recordingLogger().logger,
      OPTIONS,
      () => NOW,
    );

    expect(await sweep.run()).toBe(1);
    await stopped;

    expect(await stageOf(first)).toBe(ABANDONED_STAGE);
    expect(await stageOf(later)).toBe(PENDING_STAGE);
  });

  it("when a disabled portal has more due deals than a batch, older than another portal's, then the other portal's still move", async () => {
    const disabled: Tenant = { portalId: portals.put(aPortal()).portalId, appId: null };
    await ecommerceInstalls.markInstalled(disabled, NOW - 2 * DAY);
    await Promise.all(['x1', 'x2', 'x3'].map((id, i) => pendingDeal(id, NOW - 3 * DAY + i, disabled)));
    await portals.setActive(disabled.portalId, false);
    const deal = await pendingDeal('ok', NOW - 2 * DAY);

    expect(await sweeper({ batchSize: 2 }).run()).toBe(1);

    expect(await stageOf(deal)).toBe(ABANDONED_STAGE);
    expect(await checkouts.due(NOW, 10)).toHaveLength(3);
  });

  it('when more deals are due than one batch holds, then batch after batch moves them all', async () => {
    const deals = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id, i) => pendingDeal(id, NOW - 2 * DAY + i)));

    expect(await sweeper({ batchSize: 2 }).run()).toBe(5);

    expect(await Promise.all(deals.map(stageOf))).toEqual(Array(5).fill(ABANDONED_STAGE));
  });

  it('when another replica holds the lease, then nothing is swept, without a warning (that is the usual case); once it stops, the lease is free at once', async () => {
    const deal = await pendingDeal('d', NOW - 2 * DAY);
    const other = sweeper();
    await checkouts.acquireLease(SWEEP_LEASE, 'another-replica', NOW, OPTIONS.leaseMs);

    expect(await other.run()).toBe(0);
    expect(await stageOf(deal)).toBe(PENDING_STAGE);
    expect(log.entries.filter((entry) => entry.level === 'warn')).toEqual([]);

    await checkouts.releaseLease(SWEEP_LEASE, 'another-replica');
    const first = sweeper();
    expect(await first.run()).toBe(1);
    await first.stop();
    expect(await first.run()).toBe(0);
    expect(await checkouts.acquireLease(SWEEP_LEASE, 'another-replica', NOW, OPTIONS.leaseMs)).toBe(true);
  });
});
