import type { Tenant } from '@ecomm-sync/contracts';
import type { CheckoutRepository, CheckoutState, PendingCheckout } from '@ecomm-sync/data-access';
import { checkoutTransition, keyOf, PENDING_STAGE } from '@ecomm-sync/domain';
import { newObjectId } from '../object-ids';
import { copy, type PublicOf } from '../public-of';

/** CheckoutRepository in memory: pending deals by object, and named leases. */
export class FakeCheckoutRepository implements PublicOf<CheckoutRepository> {
  private readonly pending = new Map<string, PendingCheckout>();
  private readonly leases = new Map<string, { holder: string; until: number }>();

  /** As the real repository writes it: each deal's checkout goes through libs/domain's checkoutTransition. */
  async track(tenant: Tenant, storeId: string, deals: readonly CheckoutState[], now: number): Promise<void> {
    for (const deal of deals) {
      const key = keyOf(tenant.portalId, tenant.appId, storeId, deal.externalObjectId);
      const stored = this.pending.get(key) ?? null;
      const { next } = checkoutTransition(stored, {
        kind: 'deal-applied',
        stage: deal.pending ? PENDING_STAGE : null,
        crmId: deal.pending ? deal.crmId : null,
        now,
      });
      if (next === null) this.pending.delete(key);
      else this.pending.set(key, { ...(stored ?? { id: newObjectId(), tenant: copy(tenant), storeId, externalObjectId: deal.externalObjectId }), ...next });
    }
  }

  async due(before: number, limit: number, passed: readonly Tenant[] = []): Promise<PendingCheckout[]> {
    const isPassed = (checkout: PendingCheckout) =>
      passed.some((tenant) => tenant.portalId === checkout.tenant.portalId && tenant.appId === checkout.tenant.appId);
    return [...this.pending.values()]
      .filter((checkout) => checkout.pendingSince <= before && !isPassed(checkout))
      .sort((a, b) => a.pendingSince - b.pendingSince)
      .slice(0, limit)
      .map(copy);
  }

  async forget(checkouts: readonly PendingCheckout[]): Promise<void> {
    for (const checkout of checkouts) {
      for (const [key, stored] of this.pending) if (stored.id === checkout.id && stored.pendingSince === checkout.pendingSince) this.pending.delete(key);
    }
  }

  async acquireLease(name: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
    const lease = this.leases.get(name);
    if (lease && lease.until >= now && lease.holder !== holder) return false;
    this.leases.set(name, { holder, until: now + ttlMs });
    return true;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    if (this.leases.get(name)?.holder === holder) this.leases.delete(name);
  }
}
