import type { Connection, mongo } from 'mongoose';
import {
  CrmBudgetPaused,
  correctBudget,
  emptyBudgetState,
  grantPermits,
  localDay,
  requestWindow,
  rollBudget,
  usedInWindow,
  type CrmBudget,
  type CrmBudgetState,
  type CrmLimits,
  type CrmPauseReason,
  type CrmRequestKind,
  type GrantOutcome,
} from '@ecomm-sync/domain';
import { crmBudgetCollection, crmBudgetModel, type CrmBudgetDoc } from './crm-budget.model';

export interface MongoCrmBudgetsOptions {
  /** Epoch ms; every replica's clock must agree within a fraction of a slot (NTP). */
  clock?: () => number;
  /** Length of a slot (default 500 ms): permits are granted per slot and expire at its end. */
  slotMs?: number;
  /** Most permits one replica leases at once (default 5): fewer writes per request, more permits dropped unused. */
  leaseSize?: number;
  /** Waits `ms` of the clock's time (default: a timer). A test that runs the clock faster passes a wait that runs as fast. */
  sleep?: (ms: number) => Promise<void>;
  /** How long a take without `maxWaitMs` may wait (default 30 s). */
  defaultMaxWaitMs?: number;
}

/** What this process did to the database, for measuring the cost per request. */
export interface CrmBudgetStats {
  reads: number;
  writes: number;
  /** Compare-and-set writes that found another writer had changed the budget first. */
  lostRaces: number;
  /** Permits taken by callers (requests allowed). */
  taken: number;
}

export interface CrmBudgetStatus {
  pausedUntil: number | null;
  reason: string | null;
  usedInWindow: number;
  usedToday: number;
}

const BUDGET_FIELDS = ['grants', 'searchGrants', 'day', 'usedToday', 'blockedUntil', 'searchBlockedUntil', 'pausedUntil', 'pauseReason', 'crmMax'] as const;
const fieldsOf = (state: CrmBudgetState) => Object.fromEntries(BUDGET_FIELDS.map((field) => [field, state[field]])) as unknown as CrmBudgetState;
const MAX_WRITE_ROUNDS = 50;
const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function checkLimits(limits: CrmLimits): void {
  const positive = (value: number | null) => value === null || (Number.isFinite(value) && value > 0);
  if (!positive(limits.burstPer10s) || !positive(limits.dailyCap) || !positive(limits.searchPerSecond)) {
    throw new RangeError(`CRM limits must be positive numbers: ${JSON.stringify(limits)}`);
  }
  localDay(0, limits.timeZone); // a RangeError for a time zone Intl does not know
}

/**
 * One request budget per CRM account in MongoDB (`crm_budgets`), shared by every replica of every
 * service that reaches the account (decision 20). A budget document is changed only by
 * compare-and-set on its `version`; each replica leases small blocks of permits valid until the end
 * of their slot, so a busy account costs a database write per lease rather than per request.
 */
export class MongoCrmBudgets {
  readonly stats: CrmBudgetStats = { reads: 0, writes: 0, lostRaces: 0, taken: 0 };
  readonly clock: () => number;
  readonly slotMs: number;
  readonly leaseSize: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly defaultMaxWaitMs: number;
  private readonly model;
  private readonly collection: mongo.Collection<CrmBudgetDoc>;
  private indexes: Promise<unknown> | null = null;
  private readonly budgets = new Map<string, AccountBudget>();

  constructor(connection: Connection, options: MongoCrmBudgetsOptions = {}) {
    this.model = crmBudgetModel(connection);
    this.collection = crmBudgetCollection(this.model);
    this.clock = options.clock ?? Date.now;
    this.slotMs = options.slotMs ?? 500;
    this.leaseSize = Math.max(1, options.leaseSize ?? 5);
    this.sleep = options.sleep ?? timer;
    this.defaultMaxWaitMs = options.defaultMaxWaitMs ?? 30_000;
    if (!(this.slotMs > 0 && 10_000 % this.slotMs === 0)) throw new RangeError(`slotMs must divide 10,000 ms: ${this.slotMs}`);
  }

  /** The budget of one CRM account (the same object for the same key in this process). */
  for(accountKey: string, limits: CrmLimits): CrmBudget {
    checkLimits(limits);
    let budget = this.budgets.get(accountKey);
    if (!budget) {
      budget = new AccountBudget(this, accountKey, limits);
      this.budgets.set(accountKey, budget);
    } else {
      budget.limits = limits;
    }
    return budget;
  }

  /** read-only state for status pages */
  async state(accountKey: string): Promise<CrmBudgetStatus | null> {
    const doc = await this.read(accountKey);
    if (!doc) return null;
    const now = this.clock();
    const current = rollBudget(doc, now, doc.timeZone ?? 'UTC');
    const blocked = current.blockedUntil !== null;
    return {
      pausedUntil: current.pausedUntil ?? current.blockedUntil,
      reason: current.pauseReason ?? (blocked ? 'rate-limited' : null),
      usedInWindow: usedInWindow(current.grants, now, requestWindow(this.slotMs)),
      usedToday: current.usedToday,
    };
  }

  /** @internal */
  async read(accountKey: string): Promise<(CrmBudgetDoc & { timeZone?: string }) | null> {
    await (this.indexes ??= this.model.createIndexes());
    this.stats.reads++;
    return this.collection.findOne({ _id: accountKey });
  }

  /** @internal Compare-and-set: the new document, or null when another writer changed it since `base` was read. */
  async write(accountKey: string, base: CrmBudgetDoc | null, state: CrmBudgetState, timeZone: string): Promise<CrmBudgetDoc | null> {
    await (this.indexes ??= this.model.createIndexes());
    this.stats.writes++;
    const version = (base?.version ?? 0) + 1;
    const fields = { ...fieldsOf(state), timeZone, version };
    if (!base) {
      try {
        await this.collection.insertOne({ _id: accountKey, ...fields });
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
        this.stats.lostRaces++;
        return null;
      }
    } else {
      const { matchedCount } = await this.collection.updateOne({ _id: accountKey, version: base.version }, { $set: fields });
      if (matchedCount !== 1) {
        this.stats.lostRaces++;
        return null;
      }
    }
    return { _id: accountKey, ...fields };
  }
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  deadline: number;
}

/** Permits of one kind leased by this replica, and the callers waiting for one. */
interface Lane {
  left: number;
  validUntil: number;
  waiters: Waiter[];
  pumping: boolean;
  /** While the lane waits for the budget: until when, and why. */
  waitingUntil: number | null;
  waitReason: CrmPauseReason;
  /** After a wait, what this replica knows of the budget is likely old: read before writing. */
  stale: boolean;
  /** Takes in the current and the previous slot: how many permits the next lease asks for. */
  demandSlot: number;
  demand: number;
  previousDemand: number;
}

const newLane = (): Lane => ({ left: 0, validUntil: 0, waiters: [], pumping: false, waitingUntil: null, waitReason: 'rate-limited', stale: false, demandSlot: 0, demand: 0, previousDemand: 0 });

class AccountBudget implements CrmBudget {
  /** The newest version of the budget this replica has read or written. */
  private known: CrmBudgetDoc | null = null;
  private readonly lanes: Record<CrmRequestKind, Lane> = { request: newLane(), search: newLane() };

  constructor(
    private readonly owner: MongoCrmBudgets,
    private readonly accountKey: string,
    public limits: CrmLimits,
  ) {}

  take(kind: CrmRequestKind, options: { maxWaitMs?: number } = {}): Promise<void> {
    const lane = this.lanes[kind];
    const now = this.owner.clock();
    this.noteDemand(lane, now);
    if (lane.waiters.length === 0 && lane.left > 0 && now < lane.validUntil) {
      lane.left--;
      this.owner.stats.taken++;
      return Promise.resolve();
    }
    const deadline = now + (options.maxWaitMs ?? this.owner.defaultMaxWaitMs);
    if (lane.waitingUntil !== null && lane.waitingUntil > deadline) return Promise.reject(new CrmBudgetPaused(lane.waitingUntil, lane.waitReason));
    return new Promise<void>((resolve, reject) => {
      lane.waiters.push({ resolve, reject, deadline });
      void this.pump(kind);
    });
  }

  async observe(status: number, headers: Record<string, string | undefined>, body?: unknown): Promise<void> {
    const now = this.owner.clock();
    if (status === 429) {
      // This replica's leased permits go unused: the CRM counts differently from us.
      this.lanes.search.left = 0;
      if ((body as { policyName?: unknown } | undefined)?.policyName !== 'SECONDLY') this.lanes.request.left = 0;
    }
    const correct = (base: CrmBudgetDoc | null) => correctBudget(base ?? emptyBudgetState(), { now, status, headers, body, limits: this.limits, slotMs: this.owner.slotMs });
    // What this replica knows is older than the budget, never ahead of it: when it needs no
    // correction, neither does the budget. Otherwise the correction is computed on a fresh read.
    if (this.known && !correct(this.known).changed) return;
    for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
      const base = await this.owner.read(this.accountKey);
      this.remember(base);
      const { state, changed } = correct(base);
      if (!changed) return;
      const written = await this.owner.write(this.accountKey, base, state, this.limits.timeZone);
      if (written) return this.remember(written);
    }
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
            lane.waiters.shift()!.resolve();
          }
          continue;
        }
        lane.left = 0;
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
          // Permits whose slot ended while the write went to the database are dropped, never used late.
          lane.left = outcome.count;
          lane.validUntil = outcome.validUntil;
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

  /** Leases permits: computes the grant on the budget as known (read again after a lost race) and writes it by compare-and-set. */
  private async lease(kind: CrmRequestKind, want: number, stale: boolean): Promise<GrantOutcome> {
    let base = !stale && this.known ? this.known : await this.owner.read(this.accountKey);
    this.remember(base);
    for (let round = 0; round < MAX_WRITE_ROUNDS; round++) {
      // A stale budget is never less strict than the stored one: a wait it says is a real wait.
      const outcome = grantPermits(base ?? emptyBudgetState(), { now: this.owner.clock(), kind, want, limits: this.limits, slotMs: this.owner.slotMs });
      if (outcome.outcome !== 'granted') return outcome;
      const written = await this.owner.write(this.accountKey, base, outcome.state, this.limits.timeZone);
      if (written) {
        this.remember(written);
        return outcome;
      }
      if (round > 0) await timer(Math.random() * 2 * round); // several writers at once: spread them
      base = await this.owner.read(this.accountKey);
      this.remember(base);
    }
    throw new Error(`CRM budget ${this.accountKey}: lost ${MAX_WRITE_ROUNDS} compare-and-set rounds in a row`);
  }

  private remember(doc: CrmBudgetDoc | null): void {
    if (doc && (!this.known || doc.version >= this.known.version)) this.known = doc;
  }
}
