import type { Tenant } from '@ecomm-sync/contracts';
import type { EcommerceInstall, PendingCheckout } from '@ecomm-sync/data-access';
import { ABANDONED_STAGE, keyOf, PENDING_STAGE } from '@ecomm-sync/domain';
import { aPortal, aTenant, FakeCrm, recordingLogger } from '@ecomm-sync/testing';
import { CrmDirectory } from './crm-directory';
import { SweepAbandonedCheckoutsUseCase } from './sweep-abandoned-checkouts.use-case';

const DAY = 24 * 60 * 60_000;
const install = (workflowsEnabled: boolean): EcommerceInstall => ({
  installCompleted: true,
  dashboardInstalled: true,
  workflowsEnabled,
  installedAt: 0,
  uninstalledAt: null,
});

/** The stored side of the sweep: pending checkouts, an active portal, and each tenant's workflow switch (reads counted). */
function store(portalId: number) {
  let pending: PendingCheckout[] = [];
  const workflows = new Map<string, boolean>();
  const installReads: string[] = [];
  const repositories = {
    checkouts: {
      acquireLease: async () => true,
      releaseLease: async () => undefined,
      due: async (before: number, limit: number) => pending.filter((checkout) => checkout.pendingSince <= before).slice(0, limit),
      forget: async (done: readonly PendingCheckout[]) => void (pending = pending.filter((checkout) => !done.includes(checkout))),
    },
    portals: { findById: async (id: number) => (id === portalId ? aPortal({ portalId }) : null) },
    ecommerceInstalls: {
      find: async (tenant: Tenant) => {
        installReads.push(tenant.appId ?? 'portal');
        return install(workflows.get(keyOf(tenant.portalId, tenant.appId)) ?? false);
      },
    },
  };
  return {
    repositories,
    installReads,
    switchWorkflows: (tenant: Tenant, on: boolean) => workflows.set(keyOf(tenant.portalId, tenant.appId), on),
    add: (checkout: PendingCheckout) => pending.push(checkout),
  };
}

describe('SweepAbandonedCheckoutsUseCase: the workflow switch, read once per run', () => {
  const now = 10 * DAY;
  let portalId: number;
  let crm: FakeCrm;
  let stored: ReturnType<typeof store>;
  let sweep: SweepAbandonedCheckoutsUseCase;
  let sequence = 0;

  beforeEach(() => {
    portalId = aTenant().portalId;
    crm = new FakeCrm({ properties: { DEAL: [{ name: 'dealstage', label: 'Stage', type: 'enumeration' }] } });
    stored = store(portalId);
    const directory = new CrmDirectory({ clientFor: () => crm, forget: () => undefined }, { propertyCacheMs: 0 });
    sweep = new SweepAbandonedCheckoutsUseCase(
      stored.repositories,
      directory,
      recordingLogger().logger,
      { abandonAfterMs: DAY, batchSize: 100, leaseMs: 60_000 },
      () => now,
    );
  });

  /** A deal left pending for two days in the CRM, tracked as a pending checkout of `tenant`. */
  async function anAbandonedCheckout(tenant: Tenant): Promise<number> {
    const [deal] = await crm.batchCreate('DEAL', [{ properties: { dealstage: PENDING_STAGE } }]);
    stored.add({ id: `c-${++sequence}`, tenant, storeId: 'eu', externalObjectId: `cart-${sequence}`, crmId: deal.id, pendingSince: now - 2 * DAY });
    return deal.id;
  }

  const stageOf = async (id: number) => (await crm.batchRead('DEAL', [id], ['dealstage']))[0].properties.dealstage;

  it("when a run sweeps several checkouts of two applications, then each application's workflow switch is read once and only the switched-on one's deals move", async () => {
    const on: Tenant = { portalId, appId: 'app-on' };
    const off: Tenant = { portalId, appId: 'app-off' };
    stored.switchWorkflows(on, true);
    const moved = [await anAbandonedCheckout(on), await anAbandonedCheckout(on), await anAbandonedCheckout(on)];
    const kept = [await anAbandonedCheckout(off), await anAbandonedCheckout(off)];

    expect(await sweep.run()).toBe(3);

    expect(await Promise.all(moved.map(stageOf))).toEqual([ABANDONED_STAGE, ABANDONED_STAGE, ABANDONED_STAGE]);
    expect(await Promise.all(kept.map(stageOf))).toEqual([PENDING_STAGE, PENDING_STAGE]);
    expect(stored.installReads.sort()).toEqual(['app-off', 'app-on']);
  });

  it('when workflows are switched on between two runs, then the next run reads the switch again and moves the deal', async () => {
    const tenant: Tenant = { portalId, appId: null };
    const first = await anAbandonedCheckout(tenant);
    expect(await sweep.run()).toBe(0);
    expect(await stageOf(first)).toBe(PENDING_STAGE);

    stored.switchWorkflows(tenant, true);
    const second = await anAbandonedCheckout(tenant);

    expect(await sweep.run()).toBe(1);
    expect(await stageOf(second)).toBe(ABANDONED_STAGE);
    expect(stored.installReads).toEqual(['portal', 'portal']);
  });
});
