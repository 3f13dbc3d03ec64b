import { randomUUID } from 'node:crypto';
import type { Tenant } from '@ecomm-sync/contracts';
import type { PendingCheckout, Repositories } from '@ecomm-sync/data-access';
import { checkoutsDueBefore, checkoutTransition, keyOf, TtlCache } from '@ecomm-sync/domain';
import { sendingFor } from '@ecomm-sync/crm-client';
import type { Logger } from '@ecomm-sync/runtime';
import type { CrmDirectory } from './crm-directory';
import { moveToAbandoned } from './move-to-abandoned';

export interface SweepOptions {
  /** How long a deal may stay in checkout_pending (SPEC.md: 24 hours). */
  abandonAfterMs: number;
  /** Deals read and moved at a time. */
  batchSize: number;
  /** How long the lease holds without renewal (a crashed holder's sweep resumes elsewhere after it). */
  leaseMs: number;
}

export const SWEEP_LEASE = 'abandoned-checkout-sweep';

/**
 * The ecommerce workflow that moves deals left in `checkout_pending` for 24 hours to
 * `checkout_abandoned`. Exactly one replica sweeps at a time (a lease in MongoDB, renewed per
 * batch); each batch reads the deals' current stage from the CRM first, so a deal that moved on
 * meanwhile is left alone; only tenants whose workflows are on are swept.
 */
export class SweepAbandonedCheckoutsUseCase {
  private readonly holder = randomUUID();
  private stopping = false;
  private current: Promise<number> | null = null;

  constructor(
    private readonly repositories: {
      checkouts: Pick<Repositories['checkouts'], 'acquireLease' | 'due' | 'forget' | 'releaseLease'>;
      portals: Pick<Repositories['portals'], 'findById'>;
      ecommerceInstalls: Pick<Repositories['ecommerceInstalls'], 'find'>;
    },
    private readonly crm: CrmDirectory,
    private readonly logger: Logger,
    private readonly options: SweepOptions,
    private readonly clock: () => number = Date.now,
  ) {}

  /** One sweep; answers how many deals it moved (0 when another replica holds the lease, or after stop()). */
  run(): Promise<number> {
    if (this.stopping) return Promise.resolve(0);
    this.current = this.sweepAll().finally(() => (this.current = null));
    return this.current;
  }

  /** Graceful shutdown: the batch in progress finishes, no other starts, and the lease is released at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.current?.catch(() => undefined);
    await this.repositories.checkouts.releaseLease(SWEEP_LEASE, this.holder);
  }

  /**
   * Batch after batch, oldest first. A tenant whose deals stay (its portal disabled) or whose
   * portal's CRM failed is passed over for the rest of the run: its deals, however many and however
   * old, do not hold back the other portals'. Every batch forgets its deals or passes their tenants,
   * so the run ends.
   */
  private async sweepAll(): Promise<number> {
    this.workflowCache.clear();
    let moved = 0;
    const passed = new Map<string, Tenant>();
    // Another replica sweeps (holds the lease): nothing to do, nothing to say.
    if (!(await this.repositories.checkouts.acquireLease(SWEEP_LEASE, this.holder, this.clock(), this.options.leaseMs))) return moved;
    for (let first = true; ; first = false) {
      if (this.stopping) return moved;
      if (!first && !(await this.leaseHeld())) return moved;
      const due = await this.repositories.checkouts.due(checkoutsDueBefore(this.clock(), this.options.abandonAfterMs), this.options.batchSize, [
        ...passed.values(),
      ]);
      const batch = await this.sweep(due);
      moved += batch.moved;
      if (batch.stopped) return moved;
      const before = passed.size;
      for (const tenant of batch.left) passed.set(keyOf(tenant.portalId, tenant.appId), tenant);
      if (due.length < this.options.batchSize || (batch.forgotten === 0 && passed.size === before)) return moved;
    }
  }

  /**
   * Moves and forgets a batch of due deals; `left`: the tenants whose deals stay for a later run.
   * The lease is renewed and a stop looked for before each portal (a CRM that does not answer may
   * hold a portal for its client's longest wait): `stopped` when either ends the run.
   */
  private async sweep(due: PendingCheckout[]): Promise<{ moved: number; forgotten: number; left: Tenant[]; stopped: boolean }> {
    let moved = 0;
    let forgotten = 0;
    const left: Tenant[] = [];
    const byPortal = new Map<number, PendingCheckout[]>();
    for (const checkout of due) byPortal.set(checkout.tenant.portalId, [...(byPortal.get(checkout.tenant.portalId) ?? []), checkout]);
    for (const [portalId, checkouts] of byPortal) {
      if (this.stopping || !(await this.leaseHeld())) return { moved, forgotten, left, stopped: true };
      try {
        const outcome = await this.sweepPortal(portalId, checkouts);
        moved += outcome.moved;
        forgotten += outcome.forgotten;
        left.push(...outcome.left);
        if (outcome.stopped) return { moved, forgotten, left, stopped: true };
      } catch (error) {
        // Its CRM refused or failed: its deals stay due for the next run, the other portals go on.
        this.logger.warn('abandoned checkouts of a portal not swept', { portalId, count: checkouts.length, error: String(error) });
        left.push(...checkouts.map((checkout) => checkout.tenant));
      }
    }
    return { moved, forgotten, left, stopped: false };
  }

  /**
   * One portal's due deals: read from its CRM, moved, forgotten; `left`: its tenants whose deals
   * stay (portal disabled, or not reached); `stopped`: the lease was lost between two tenants'
   * requests. A lost lease or a failed move keeps what was moved before counted and forgotten.
   */
  private async sweepPortal(portalId: number, checkouts: PendingCheckout[]): Promise<{ moved: number; forgotten: number; left: Tenant[]; stopped: boolean }> {
    const portal = await this.repositories.portals.findById(portalId);
    const workflowsOn = new Map<PendingCheckout, boolean>();
    if (portal?.active) for (const checkout of checkouts) workflowsOn.set(checkout, await this.workflowsOn(checkout));
    const running = checkouts.filter((checkout) => workflowsOn.get(checkout));
    const crm = portal?.active && running.length > 0 ? this.crm.clientFor(portal) : null;
    // Each tenant's deals are read and moved as sent for it: its console lists those requests (decision 51).
    const stages = new Map<number, string | null | undefined>();
    let first = true; // the lease was renewed just before this portal
    for (const [tenant, owned] of byTenant(crm ? running : [])) {
      if (!first && !(await this.leaseHeld())) return { moved: 0, forgotten: 0, left: checkouts.map((checkout) => checkout.tenant), stopped: true };
      first = false;
      const read = await sendingFor(tenant, () =>
        crm!.batchRead(
          'DEAL',
          owned.map((checkout) => checkout.crmId),
          ['dealstage'],
        ),
      );
      for (const deal of read) stages.set(deal.id, deal.properties.dealstage);
    }
    const verdicts = checkouts.map((checkout) => ({
      checkout,
      ...checkoutTransition(checkout, {
        kind: 'swept',
        portalActive: portal?.active ?? false,
        workflowsOn: workflowsOn.get(checkout) ?? false,
        crmStage: stages.get(checkout.crmId) ?? undefined,
      }),
    }));
    const toMove = verdicts.filter(({ effects }) => effects.length > 0).map(({ checkout }) => checkout);
    const unmoved = new Set(toMove);
    let stopped = false;
    for (const [tenant, owned] of byTenant(crm ? toMove : [])) {
      if (!first && !(await this.leaseHeld())) {
        stopped = true;
        break;
      }
      first = false;
      const { moved, refused, failure } = await moveToAbandoned(crm!, tenant, owned);
      for (const checkout of owned) if (moved.has(checkout.crmId)) unmoved.delete(checkout);
      // Refused deals stay due (the next run tries them again); the next tenants' go on.
      if (refused.size > 0) {
        const [example] = refused.values();
        this.logger.warn('abandoned checkouts the CRM refused to move', { portalId, appId: tenant.appId, count: refused.size, first: example.message });
      }
      if (failure) {
        // The CRM cannot take requests now: this tenant's unmoved deals and the next ones' stay due; what was moved is counted and forgotten.
        this.logger.warn('abandoned checkouts of a tenant not moved', {
          portalId,
          appId: tenant.appId,
          count: owned.length - moved.size,
          error: String(failure),
        });
        break;
      }
    }
    // Forgotten: those the machine let go (but deals left unmoved: a lost lease, a CRM failure); a disabled portal's are kept, to be swept once it is enabled again.
    const toForget = verdicts.filter(({ next, checkout }) => next === null && !unmoved.has(checkout)).map(({ checkout }) => checkout);
    await this.repositories.checkouts.forget(toForget);
    const moved = toMove.filter((checkout) => !unmoved.has(checkout));
    if (moved.length > 0) {
      this.logger.info('abandoned checkouts moved', { portalId, count: moved.length, externalObjectIds: moved.map((checkout) => checkout.externalObjectId) });
    }
    const left = verdicts.filter(({ next, checkout }) => next !== null || unmoved.has(checkout)).map(({ checkout }) => checkout.tenant);
    return { moved: moved.length, forgotten: toForget.length, left, stopped };
  }

  /**
   * Renews the lease during a run (before a batch's read, a portal, and between a portal's CRM
   * requests: a tenant's read or move may wait out the account's budget); false when another
   * replica took it, which stops the run there (said in the log: the replica stalled).
   */
  private async leaseHeld(): Promise<boolean> {
    // A stop lets the portal under way finish (its deals read are moved); only a lease taken over stops it here.
    if (await this.repositories.checkouts.acquireLease(SWEEP_LEASE, this.holder, this.clock(), this.options.leaseMs)) return true;
    this.logger.warn('abandoned-checkout sweep stopped: another replica took its lease (this one went longer than leaseMs without renewing it)', {
      leaseMs: this.options.leaseMs,
    });
    return false;
  }

  /** Whether a tenant's workflows are on, read once per run (cleared when a run starts). */
  private readonly workflowCache = new TtlCache<boolean>(Number.POSITIVE_INFINITY);

  private workflowsOn({ tenant }: PendingCheckout): Promise<boolean> {
    return this.workflowCache.get(keyOf(tenant.portalId, tenant.appId), async () => (await this.repositories.ecommerceInstalls.find(tenant)).workflowsEnabled);
  }
}

/** Checkouts by their tenant, in the order first met. */
function byTenant(checkouts: readonly PendingCheckout[]): Map<Tenant, PendingCheckout[]> {
  const keyed = new Map<string, { tenant: Tenant; owned: PendingCheckout[] }>();
  for (const checkout of checkouts) {
    const key = keyOf(checkout.tenant.portalId, checkout.tenant.appId);
    const found = keyed.get(key) ?? { tenant: checkout.tenant, owned: [] };
    found.owned.push(checkout);
    keyed.set(key, found);
  }
  return new Map([...keyed.values()].map(({ tenant, owned }) => [tenant, owned]));
}
