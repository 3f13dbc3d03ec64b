import { performance } from 'node:perf_hooks';
import type { Connection, mongo } from 'mongoose';
import { onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { localDay, requestWindow, rollBudget, usedInWindow, type CrmBudget, type CrmBudgetState, type CrmLimits } from '@ecomm-sync/domain';
import { AccountBudget, type CrmBudgetStats } from './account-budget';
import type { BudgetAccount } from './budget-lane';
import { BudgetVersionClaims } from './budget-version-claims';
import { crmBudgetCollection, crmBudgetModel, type CrmBudgetDoc } from './crm-budget.model';

/** How a CRM account is reached: a hosted CRM over the internet, or the built-in one nearby. */
export type CrmReach = 'hosted' | 'builtin';

export interface MongoCrmBudgetsOptions {
  /** Epoch ms; every replica's clock must agree within a fraction of a slot (NTP). */
  clock?: () => number;
  /** Length of a slot (default 100 ms): permits are granted per slot and expire at its end. */
  slotMs?: number;
  /**
   * How late after its slot a request to a hosted CRM may reach it and still be counted right
   * (default 750 ms): the window counts that much more than 10 s. Over the internet a request left
   * at its slot's end may still need a connection and a TLS handshake; not measured yet, so kept.
   */
  marginMs?: number;
  /**
   * The same for the built-in CRM, reached on the cluster's network (default 300 ms): the window
   * counts 10.4 s, so a long run gets 0.96 of the limit. Measured: at most 126 ms on a loaded
   * machine (decision 20, addenda of 2026-11-27). Every replica of every app must use the same
   * slot and margins: they count the same stored slots.
   */
  builtinMarginMs?: number;
  /** Most permits one replica leases at once (default 5): fewer writes per request, more permits dropped unused. */
  leaseSize?: number;
  /** Waits `ms` of the clock's time (default: a timer). A test that runs the clock faster passes a wait that runs as fast. */
  sleep?: (ms: number) => Promise<void>;
  /** How long a take without `maxWaitMs` may wait (default 30 s). */
  defaultMaxWaitMs?: number;
  /**
   * How long a claimed version may keep the budget from moving past it before this replica takes
   * it for the claim of a writer that died between its claim and its write (default 5 s; a live
   * writer writes one round trip after it claims).
   */
  staleClaimMs?: number;
  /** This process's monotonic time in ms, which `staleClaimMs` is measured on (default: performance.now; tests set it). */
  monotonic?: () => number;
}

/** What this process did to the database, for measuring the cost per request. */
export interface CrmBudgetStatus {
  pausedUntil: number | null;
  reason: string | null;
  usedInWindow: number;
  usedToday: number;
}

const BUDGET_FIELDS = [
  'grants',
  'searchGrants',
  'day',
  'usedToday',
  'blockedUntil',
  'searchBlockedUntil',
  'pausedUntil',
  'pauseReason',
  'crmMax',
  'correctedAt',
  'paceAt',
] as const;
const fieldsOf = (state: CrmBudgetState) => Object.fromEntries(BUDGET_FIELDS.map((field) => [field, state[field] ?? null])) as unknown as CrmBudgetState;
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
  readonly stats: CrmBudgetStats = { reads: 0, writes: 0, lostRaces: 0, leased: 0, taken: 0, handedBack: 0, contended: 0 };
  readonly clock: () => number;
  readonly slotMs: number;
  readonly marginMs: number;
  readonly builtinMarginMs: number;
  readonly leaseSize: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly defaultMaxWaitMs: number;
  private readonly model;
  private readonly collection: mongo.Collection<CrmBudgetDoc>;
  private readonly claims: BudgetVersionClaims;
  private indexes: Promise<unknown> | null = null;
  private readonly budgets = new Map<string, AccountBudget>();

  constructor(connection: Connection, options: MongoCrmBudgetsOptions = {}) {
    this.model = crmBudgetModel(connection);
    this.collection = crmBudgetCollection(this.model);
    this.claims = new BudgetVersionClaims(connection, {
      staleClaimMs: options.staleClaimMs ?? 5_000,
      monotonic: options.monotonic ?? (() => performance.now()),
    });
    this.clock = options.clock ?? Date.now;
    this.slotMs = options.slotMs ?? 100;
    this.marginMs = options.marginMs ?? 750;
    this.builtinMarginMs = options.builtinMarginMs ?? 300;
    this.leaseSize = Math.max(1, options.leaseSize ?? 5);
    this.sleep = options.sleep ?? timer;
    this.defaultMaxWaitMs = options.defaultMaxWaitMs ?? 30_000;
    if (!(this.slotMs > 0 && 10_000 % this.slotMs === 0)) throw new RangeError(`slotMs must divide 10,000 ms: ${this.slotMs}`);
  }

  /**
   * The budget of one CRM account (the same object for the same key in this process). `reach`: a
   * hosted CRM (the default) or the built-in one, which sets the account's margin.
   */
  for(accountKey: string, limits: CrmLimits, reach: CrmReach = 'hosted'): CrmBudget {
    checkLimits(limits);
    let budget = this.budgets.get(accountKey);
    if (!budget) {
      budget = new AccountBudget(this, accountKey, limits, reach === 'builtin' ? this.builtinMarginMs : this.marginMs);
      this.budgets.set(accountKey, budget);
    } else {
      budget.limits = limits;
    }
    return budget;
  }

  /** read-only state for status pages */
  async state(accountKey: string): Promise<CrmBudgetStatus | null> {
    const doc = await this.read(accountKey);
    return doc ? this.statusOf(doc) : null;
  }

  private statusOf(doc: CrmBudgetDoc): CrmBudgetStatus {
    const now = this.clock();
    const current = rollBudget(doc, now, doc.timeZone ?? 'UTC');
    const blocked = current.blockedUntil !== null;
    return {
      pausedUntil: current.pausedUntil ?? current.blockedUntil,
      reason: current.pauseReason ?? (blocked ? 'rate-limited' : null),
      // The window as the account's budget counts it (shorter for a built-in account); a document
      // written before the margin was stored is read with the hosted one, the longer.
      usedInWindow: usedInWindow(current.grants, now, requestWindow(this.slotMs, doc.marginMs ?? this.marginMs)),
      usedToday: current.usedToday,
    };
  }

  /** Every account's budget as `state` reads it, the first `limit` by key (the operator's view). */
  async list(limit = 200): Promise<(CrmBudgetStatus & { accountKey: string })[]> {
    await (this.indexes ??= this.model.createIndexes());
    this.stats.reads++;
    const docs = await this.collection.find({}).sort({ _id: 1 }).limit(limit).toArray();
    return docs.map((doc) => ({ accountKey: doc._id, ...this.statusOf(doc as CrmBudgetDoc) }));
  }

  /** @internal */
  async read(accountKey: string): Promise<CrmBudgetDoc | null> {
    await (this.indexes ??= this.model.createIndexes());
    this.stats.reads++;
    return this.collection.findOne({ _id: accountKey });
  }

  /** @internal Compare-and-set: the new document, or null when another writer changed it since `base` was read. */
  async write(accountKey: string, base: CrmBudgetDoc | null, state: CrmBudgetState, { timeZone, marginMs }: BudgetAccount): Promise<CrmBudgetDoc | null> {
    await (this.indexes ??= this.model.createIndexes());
    this.stats.writes++;
    const version = (base?.version ?? 0) + 1;
    const fields = { ...fieldsOf(state), timeZone, marginMs, version };
    if (!base) {
      try {
        await this.collection.insertOne({ _id: accountKey, ...fields });
      } catch (error) {
        if (!onlyDuplicateKeyErrors(error)) throw error;
        this.stats.lostRaces++;
        return null;
      }
    } else {
      // The version is claimed first, by an insert on a unique key: atomic on every MongoDB-compatible
      // server, where an update filtered on `version` was not on the development one (two writers
      // both matched it under load, and the budget granted 26 in a window of 20). The update's
      // filter stays the final check.
      if (!(await this.claims.claim(accountKey, version))) {
        this.stats.lostRaces++;
        return null;
      }
      const { matchedCount } = await this.collection.updateOne({ _id: accountKey, version: base.version }, { $set: fields });
      if (matchedCount !== 1) {
        this.stats.lostRaces++;
        return null;
      }
    }
    return { _id: accountKey, ...fields };
  }
}
