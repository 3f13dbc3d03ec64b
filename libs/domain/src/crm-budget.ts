/**
 * The request budget of one CRM account, as the CRM client sees it: the port that a shared store
 * (libs/crm-client/src/budget) implements. Types only, and the hosted CRM's published limits.
 */

export type CrmRequestKind = 'request' | 'search';

// The limits of one account and the hosted CRM's tiers live with the connection's contract (libs/contracts).
export type { CrmLimits, CrmTier } from '@ecomm-sync/contracts';
export { CRM_TIER_LIMITS } from '@ecomm-sync/contracts';

export type CrmPauseReason = 'daily-cap' | 'rate-limited';

/** No request may go to the account before `until` (epoch ms), or not within the caller's wait. */
export class CrmBudgetPaused extends Error {
  constructor(
    readonly until: number,
    readonly reason: CrmPauseReason,
  ) {
    super(`CRM budget ${reason === 'daily-cap' ? 'spent for the day' : 'exhausted'}: next request at ${new Date(until).toISOString()}`);
    this.name = 'CrmBudgetPaused';
  }
}

/**
 * Leave to send one request now. The budget counts it in the window up to a margin after its slot
 * ends; a request that leaves later than `sendBy` (a process paused between the permit and the send:
 * a long collection, a loaded machine) could reach the CRM after the window stopped counting it, so
 * it must not go out on this permit: take another.
 */
export interface CrmPermit {
  /** The latest time (epoch ms, on the budget's clock) at which the request may leave. */
  readonly sendBy: number;
  /** Whether the request may still leave on this permit now. */
  usable(): boolean;
}

/** A permit for a budget that limits nothing (no CRM account limits, tests). */
export const UNLIMITED_PERMIT: CrmPermit = { sendBy: Infinity, usable: () => true };

export interface CrmBudget {
  /** Resolves when one request of this kind may be sent now; rejects with CrmBudgetPaused when it cannot be sent within maxWaitMs (e.g. daily cap reached: until = next reset). */
  take(kind: CrmRequestKind, options?: { maxWaitMs?: number }): Promise<CrmPermit>;
  /** Feeds an answer back: status and headers (lower-cased names) correct the shared budget. */
  observe(status: number, headers: Record<string, string | undefined>, body?: unknown): Promise<void> | void;
}
