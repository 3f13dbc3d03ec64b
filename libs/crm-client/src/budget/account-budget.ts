import {
  correctBudget,
  CrmBudgetPaused,
  emptyBudgetState,
  grantPermits,
  handBackPermits,
  type CrmBudget,
  type CrmBudgetState,
  type CrmPermit,
  type CrmLimits,
  type CrmRequestKind,
  type GrantOutcome,
} from '@ecomm-sync/domain';
import { observeBudgetWait } from '@ecomm-sync/runtime';
import type { CrmBudgetDoc } from './crm-budget.model';
import { newLane, type BudgetAccount, type BudgetStore, type Lane } from './budget-lane';

export type { BudgetStore, CrmBudgetStats } from './budget-lane';

const MAX_WRITE_ROUNDS = 50;

/**
 * How long a writer waits after losing its `round`-th compare-and-set in a row (1, 2, …): a random
 * time up to a bound that doubles each round, up to one slot ("full jitter"). Replicas that lost to
 * each other spread out instead of reading and writing in step again; a bound of a few milliseconds
 * let one replica of four lose 50 rounds in a row on a loaded machine (CI, 2026-12-06).
 */
export function lostRaceBackoffMs(round: number, slotMs: number, random: () => number = Math.random): number {
  return random() * Math.min(slotMs, 2 ** round);
}

/** One CRM account's budget in this replica: permits leased from the shared document, handed to waiting callers. */
export class AccountBudget implements CrmBudget {
  /** The newest version of the budget this replica has read or written. */
  private known: CrmBudgetDoc | null = null;
  private readonly lanes: Record<CrmRequestKind, Lane> = { request: newLane(), search: newLane() };

  constructor(
    private readonly owner: BudgetStore,
    private readonly accountKey: string,
    public limits: CrmLimits,
    /** How late after its slot a request may reach this account's CRM (default: the store's). */
    private readonly marginMs = owner.marginMs,
  ) {}

  take(kind: CrmRequestKind, options: { maxWaitMs?: number } = {}): Promise<CrmPermit> {
    const lane = this.lanes[kind];
    const now = this.owner.clock();
    this.noteDemand(lane, now);
    if (lane.waiters.length === 0 && lane.left > 0 && now < lane.validUntil) {
      lane.left--;
      this.owner.stats.taken++;
      return Promise.resolve(this.permit(lane.validUntil));
    }
    const deadline = now + (options.maxWaitMs ?? this.owner.defaultMaxWaitMs);
    if (lane.waitingUntil !== null && lane.waitingUntil > deadline) return Promise.reject(new CrmBudgetPaused(lane.waitingUntil, lane.waitReason));
    const waitStarted = performance.now();
    const sleepsBefore = lane.sleeps;
    return new Promise<CrmPermit>((resolve, reject) => {
      lane.waiters.push({ resolve, reject, deadline });
      // The pump hands a failed lease to the waiters as their rejection: it has nothing to report itself.
      void this.pump(kind);
    }).finally(() => {
      if (lane.sleeps > sleepsBefore) observeBudgetWait(this.accountKey, (performance.now() - waitStarted) / 1000);
    });
  }

  async observe(status: number, headers: Record<string, string | undefined>, body?: unknown): Promise<void> {
    const now = this.owner.clock();
    if (status === 429) {
      // This replica's leased permits go unused: the CRM counts differently from us.
      this.lanes.search.left = 0;
      if ((body as { policyName?: unknown } | undefined)?.policyName !== 'SECONDLY') this.lanes.request.left = 0;
    }
    const correct = (base: CrmBudgetDoc | null) =>
      correctBudget(base ?? emptyBudgetState(), { now, status, headers, body, limits: this.limits, slotMs: this.owner.slotMs, marginMs: this.marginMs });
    // What this replica knows is older than the budget, never ahead of it: when it needs no
    // correction, neither does the budget. Otherwise the correction is computed on a fresh read.
    if (this.known && !correct(this.known).changed) return;
    await this.rewrite(correct);
  }

  /**
   * A permit of a lease valid until `validUntil`: the request must leave before its slot ends, as the
   * budget handed it out, so that the whole margin after the slot is left for it to reach the CRM and
   * be counted there (decision 20, addendum). The same for searches and their search slot.
   */
  private permit(validUntil: number): CrmPermit {
    const clock = this.owner.clock;
    return { sendBy: validUntil, usable: () => clock() < validUntil };
  }

  private noteDemand(lane: Lane, now: number): void {
    const slot = Math.floor(now / this.owner.slotMs);
    if (slot !== lane.demandSlot) {
      lane.previousDemand = slot === lane.demandSlot + 1 ? lane.demand : 0;
      lane.demandSlot = slot;
      lane.demand = 0;
    }
    lane.demand++;
  }

  /** Hands leased permits to the waiters in order, leasing more when they run out; one pump per lane. */
  private async pump(kind: CrmRequestKind): Promise<void> {
    const lane = this.lanes[kind];
    if (lane.pumping) return;
    lane.pumping = true;
    try {
      while (lane.waiters.length > 0) {
        if (lane.left > 0 && this.owner.clock() < lane.validUntil) {
          while (lane.left > 0 && lane.waiters.length > 0) {
            lane.left--;
            this.owner.stats.taken++;
            lane.waiters.shift()!.resolve(this.permit(lane.validUntil));
          }
          continue;
        }
        this.expire(kind);
        const want = Math.min(this.owner.leaseSize, Math.max(lane.waiters.length, lane.demand, lane.previousDemand));
        let outcome: GrantOutcome;
        try {
          outcome = await this.lease(kind, want, lane.stale);
          lane.stale = false;
        } catch (error) {
          for (const waiter of lane.waiters.splice(0)) waiter.reject(error);
          break;
        }
        if (outcome.outcome === 'granted') {
          this.owner.stats.leased += outcome.count;
          // Permits whose slot ended while the write went to the database are handed back, never used late.
          lane.left = outcome.count;
          lane.validUntil = outcome.validUntil;
          lane.grantedAt = outcome.grantedAt;
          const lease = ++lane.lease;
          void this.owner.sleep(Math.max(0, outcome.validUntil - this.owner.clock())).then(() => lane.lease === lease && this.expire(kind));
          continue;
        }
        const { until } = outcome;
        const reason = outcome.outcome === 'paused' ? outcome.reason : 'rate-limited';
        lane.waiters = lane.waiters.filter((waiter) => {
          if (waiter.deadline >= until) return true;
          waiter.reject(new CrmBudgetPaused(until, reason));
          return false;
        });
        if (lane.waiters.length === 0) break;
        lane.waitingUntil = until;
        lane.waitReason = reason;
        lane.sleeps++;
        // A timer to the time the budget frees up, plus up to a fifth of a slot so that the replicas
        // waiting for the same slot do not all race for it at once.
        await this.owner.sleep(Math.max(0, until - this.owner.clock()) + (Math.random() * this.owner.slotMs) / 5);
        lane.waitingUntil = null;
        lane.stale = true;
      }
    } finally {
      lane.pumping = false;
    }
  }

  /**
   * Ends the lane's lease: permits it did not use go back to the shared budget (a write, in the
   * background), so that the window counts only requests that went out (decision 20, addendum).
   * Losing the write only wastes them, as before.
   */
  private expire(kind: CrmRequestKind): void {
    const lane = this.lanes[kind];
    const count = lane.left;
    lane.left = 0;
    lane.lease++;
    if (count <= 0) return;
    void this.handBack(kind, lane.grantedAt, count).catch(() => undefined);
  }

  private async handBack(kind: CrmRequestKind, grantedAt: number, count: number): Promise<void> {
    const back = (base: CrmBudgetDoc | null) =>
      handBackPermits(base ?? emptyBudgetState(), { grantedAt, kind, count, limits: this.limits, slotMs: this.owner.slotMs, marginMs: this.marginMs });
    if (await this.rewrite(back)) this.owner.stats.handedBack += count;
  }

  /**
   * Changes the stored budget as `change` computes it from a fresh read, by compare-and-set, reading
   * again after a lost race. True when a change was written; false when none was needed (or every
   * round was lost).
   */
  private async rewrite(change: (base: CrmBudgetDoc | null) => { state: CrmBudgetState; changed: boolean }): Promise<boolean> {
    for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
      if (round > 0) await this.owner.sleep(lostRaceBackoffMs(round, this.owner.slotMs));
      const base = await this.owner.read(this.accountKey);
      this.remember(base);
      const { state, changed } = change(base);
      if (!changed) return false;
      const written = await this.owner.write(this.accountKey, base, state, this.account());
      if (written) {
        this.remember(written);
        return true;
      }
    }
    return false;
  }

  /** Leases permits: computes the grant on the budget as known (read again after a lost race) and writes it by compare-and-set. */
  private async lease(kind: CrmRequestKind, want: number, stale: boolean): Promise<GrantOutcome> {
    let base = !stale && this.known ? this.known : await this.owner.read(this.accountKey);
    this.remember(base);
    for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
      // A stale budget is never less strict than the stored one: a wait it says is a real wait.
      const outcome = grantPermits(base ?? emptyBudgetState(), {
        now: this.owner.clock(),
        kind,
        want,
        limits: this.limits,
        slotMs: this.owner.slotMs,
        marginMs: this.marginMs,
      });
      if (outcome.outcome !== 'granted') return outcome;
      const written = await this.owner.write(this.accountKey, base, outcome.state, this.account());
      if (written) {
        this.remember(written);
        return outcome;
      }
      if (round === MAX_WRITE_ROUNDS - 1) break; // the last round lost: no wait and no read for nothing
      await this.owner.sleep(lostRaceBackoffMs(round + 1, this.owner.slotMs));
      base = await this.owner.read(this.accountKey);
      this.remember(base);
    }
    // Every round went to other writers: they got permits, this replica waits for the next slot as
    // for a full one. Its waiters that can wait that long try again then; the others are refused as
    // rate-limited, which callers park and retry (a dead writer's claim is taken over meanwhile).
    this.owner.stats.contended++;
    const slotMs = this.owner.slotMs;
    return { outcome: 'wait', until: (Math.floor(this.owner.clock() / slotMs) + 1) * slotMs };
  }

  private account(): BudgetAccount {
    return { timeZone: this.limits.timeZone, marginMs: this.marginMs };
  }

  private remember(doc: CrmBudgetDoc | null): void {
    if (doc && (!this.known || doc.version >= this.known.version)) this.known = doc;
  }
}
