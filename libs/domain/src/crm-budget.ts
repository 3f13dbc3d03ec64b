/**
 * The request budget of one CRM account, as the CRM client sees it: the port that a shared store
 * (libs/crm-budget) implements. Types only, and the hosted CRM's published limits.
 */

export type CrmRequestKind = 'request' | 'search';

/** What the CRM allows one account (decision 20). */
export interface CrmLimits {
  /** Requests in any rolling 10-second window (the CRM's TEN_SECONDLY_ROLLING policy). */
  burstPer10s: number;
  /** Requests per day, reset at midnight in `timeZone`; null: no daily cap. */
  dailyCap: number | null;
  /** The account's IANA time zone, which sets the daily cap's midnight. */
  timeZone: string;
  /** Search requests per second (per token); null: searches count only as requests. */
  searchPerSecond: number | null;
}

export type CrmTier = 'starter' | 'professional' | 'enterprise-addon';

/** The hosted CRM's published limits per account, by tier. */
export const CRM_TIER_LIMITS: Record<CrmTier, CrmLimits> = {
  starter: { burstPer10s: 100, dailyCap: 250_000, timeZone: 'UTC', searchPerSecond: 4 },
  professional: { burstPer10s: 190, dailyCap: 625_000, timeZone: 'UTC', searchPerSecond: 4 },
  'enterprise-addon': { burstPer10s: 250, dailyCap: 1_000_000, timeZone: 'UTC', searchPerSecond: 4 },
};

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

export interface CrmBudget {
  /** Resolves when one request of this kind may be sent now; rejects with CrmBudgetPaused when it cannot be sent within maxWaitMs (e.g. daily cap reached: until = next reset). */
  take(kind: CrmRequestKind, options?: { maxWaitMs?: number }): Promise<void>;
  /** Feeds an answer back: status and headers (lower-cased names) correct the shared budget. */
  observe(status: number, headers: Record<string, string | undefined>, body?: unknown): Promise<void> | void;
}
