/** A CRM account budget's working parts in one replica: the shared store it leases from, and its lanes of leased permits and waiting callers. */
import type { CrmBudgetState, CrmPauseReason, CrmPermit } from '@ecomm-sync/domain';
import type { CrmBudgetDoc } from './crm-budget.model';

/** What the budgets of this process did: database reads and writes, races lost, permits taken. */
export interface CrmBudgetStats {
  reads: number;
  writes: number;
  /** Compare-and-set writes that found another writer had changed the budget first. */
  lostRaces: number;
  /** Permits leased from the shared budget, counted when the lease is written (some are handed back). */
  leased: number;
  /** Permits taken by callers (requests allowed). */
  taken: number;
  /** Permits leased and handed back unused. */
  handedBack: number;
  /** Leases that lost every compare-and-set round to other writers and waited for the next slot. */
  contended: number;
}

/** What a stored budget records of its account besides the state. */
export interface BudgetAccount {
  timeZone: string;
  /** How late after its slot a request may reach the account's CRM (the window counts 10 s, the slot and this). */
  marginMs: number;
}

/** What an account's budget needs of the shared store: time, settings, counters, and compare-and-set reads and writes. */
export interface BudgetStore {
  readonly stats: CrmBudgetStats;
  readonly clock: () => number;
  readonly slotMs: number;
  /** How late after its slot a request may still reach the CRM (the window counts that much more). */
  readonly marginMs: number;
  readonly leaseSize: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly defaultMaxWaitMs: number;
  read(accountKey: string): Promise<CrmBudgetDoc | null>;
  /** `account`: what the stored budget records of its account besides the state: its time zone and its window's margin (the status pages read them). */
  write(accountKey: string, base: CrmBudgetDoc | null, state: CrmBudgetState, account: BudgetAccount): Promise<CrmBudgetDoc | null>;
}

interface Waiter {
  resolve: (permit: CrmPermit) => void;
  reject: (error: unknown) => void;
  deadline: number;
}

/** Permits of one kind leased by this replica, and the callers waiting for one. */
export interface Lane {
  left: number;
  validUntil: number;
  /** When the current lease was granted, and its number (a hand-back timer acts only on its own lease). */
  grantedAt: number;
  lease: number;
  waiters: Waiter[];
  pumping: boolean;
  /** While the lane waits for the budget: until when, and why. */
  waitingUntil: number | null;
  waitReason: CrmPauseReason;
  /** Times the lane slept until the budget freed up (a take during which it grew waited for the budget, not only for a lease). */
  sleeps: number;
  /** After a wait, what this replica knows of the budget is likely old: read before writing. */
  stale: boolean;
  /** Takes in the current and the previous slot: how many permits the next lease asks for. */
  demandSlot: number;
  demand: number;
  previousDemand: number;
}

export const newLane = (): Lane => ({
  left: 0,
  validUntil: 0,
  grantedAt: 0,
  lease: 0,
  waiters: [],
  pumping: false,
  waitingUntil: null,
  waitReason: 'rate-limited',
  sleeps: 0,
  stale: false,
  demandSlot: 0,
  demand: 0,
  previousDemand: 0,
});
