import type { Tenant } from '@ecomm-sync/contracts';
import type { CheckoutRepository, PendingCheckout } from '@ecomm-sync/data-access';
import { aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Checkouts = PublicOf<CheckoutRepository>;

/** What the applier relies on from CheckoutRepository; run against the fake and the real one. */
export function describeCheckoutRepositoryContract(name: string, make: () => Checkouts | Promise<Checkouts>): void {
  describe(`CheckoutRepository contract: ${name}`, () => {
    let checkouts: Checkouts;
    let tenant: Tenant;
    beforeEach(async () => {
      checkouts = await make();
      tenant = aTenant();
    });

    const mine = <T extends { tenant: Tenant }>(due: T[]) => due.filter((checkout) => checkout.tenant.portalId === tenant.portalId);

    it('when a lease is taken, then one holder has it at a time, its holder renews it, and another takes it once it expired or was released', async () => {
      const name = `lease-${tenant.portalId}`;
      expect(await checkouts.acquireLease(name, 'a', 1000, 500)).toBe(true);
      expect(await checkouts.acquireLease(name, 'b', 1200, 500)).toBe(false);
      expect(await checkouts.acquireLease(name, 'a', 1400, 500)).toBe(true);
      expect(await checkouts.acquireLease(name, 'b', 1800, 500)).toBe(false);
      expect(await checkouts.acquireLease(name, 'b', 1901, 500)).toBe(true);
      await checkouts.releaseLease(name, 'a');
      expect(await checkouts.acquireLease(name, 'a', 1902, 500)).toBe(false);
      await checkouts.releaseLease(name, 'b');
      expect(await checkouts.acquireLease(name, 'a', 1903, 500)).toBe(true);
    });

    it('when deals are tracked, then each keeps the time it first became pending with its newest CRM id, and goes when it moves on', async () => {
      await checkouts.track(
        tenant,
        'web',
        [
          { externalObjectId: 'd1', pending: true, crmId: 11 },
          { externalObjectId: 'd2', pending: true, crmId: 12 },
        ],
        100,
      );
      await checkouts.track(
        tenant,
        'web',
        [
          { externalObjectId: 'd1', pending: true, crmId: 21 },
          { externalObjectId: 'd3', pending: true, crmId: 13 },
        ],
        200,
      );
      await checkouts.track(tenant, 'web', [{ externalObjectId: 'd2', pending: false }], 300);
      expect(mine(await checkouts.due(150, 100_000)).map((c) => [c.externalObjectId, c.crmId, c.pendingSince])).toEqual([['d1', 21, 100]]);
      const due = mine(await checkouts.due(250, 100_000));
      expect(due.map((c) => [c.tenant, c.storeId, c.externalObjectId])).toEqual([
        [tenant, 'web', 'd1'],
        [tenant, 'web', 'd3'],
      ]);
    });

    it('when tenants are passed over, then none of their deals is due, and those of their other stores and of other tenants are', async () => {
      const app = { ...tenant, appId: 'app-passed' };
      const other = aTenant();
      await checkouts.track(tenant, 'web', [{ externalObjectId: 'd1', pending: true, crmId: 1 }], 100);
      await checkouts.track(tenant, 'eu', [{ externalObjectId: 'd2', pending: true, crmId: 2 }], 100);
      await checkouts.track(app, 'web', [{ externalObjectId: 'd3', pending: true, crmId: 3 }], 100);
      await checkouts.track(other, 'web', [{ externalObjectId: 'd4', pending: true, crmId: 4 }], 100);
      const ids = (due: PendingCheckout[]) =>
        due
          .filter((c) => [tenant.portalId, other.portalId].includes(c.tenant.portalId))
          .map((c) => c.externalObjectId)
          .sort();

      expect(ids(await checkouts.due(100, 100_000, [tenant]))).toEqual(['d3', 'd4']);
      expect(ids(await checkouts.due(100, 100_000, [tenant, app, other]))).toEqual([]);
    });

    it('when swept deals are forgotten, then they go, unless one became pending again meanwhile', async () => {
      await checkouts.track(
        tenant,
        'web',
        [
          { externalObjectId: 'd1', pending: true, crmId: 1 },
          { externalObjectId: 'd2', pending: true, crmId: 2 },
        ],
        100,
      );
      const swept = mine(await checkouts.due(100, 100_000));
      await checkouts.track(tenant, 'web', [{ externalObjectId: 'd2', pending: false }], 150);
      await checkouts.track(tenant, 'web', [{ externalObjectId: 'd2', pending: true, crmId: 2 }], 160);
      await checkouts.forget(swept);
      expect(mine(await checkouts.due(1000, 100_000)).map((c) => [c.externalObjectId, c.pendingSince])).toEqual([['d2', 160]]);
    });

    it('when two tenants track a deal of the same id, then each has its own', async () => {
      const other = aTenant();
      await checkouts.track(tenant, 'web', [{ externalObjectId: 'd', pending: true, crmId: 1 }], 100);
      await checkouts.track(other, 'web', [{ externalObjectId: 'd', pending: true, crmId: 2 }], 100);
      await checkouts.track(other, 'web', [{ externalObjectId: 'd', pending: false }], 200);
      expect(mine(await checkouts.due(1000, 100_000)).map((c) => c.crmId)).toEqual([1]);
    });
  });
}
