import type { CrmLimits, CrmPauseReason, CrmRequestKind } from './crm-budget';
import { localDay, nextDailyReset } from './crm-day';
import { paceDue, pacedRoom, paceIntervalMs } from './crm-budget-pace';
import { readRateLimitAnswer } from './crm-rate-limit-answer';
import {
  addToSlot,
  CRM_SEARCH_WINDOW_MS,
  CRM_WINDOW_MS,
  nextFreeAt,
  requestWindow,
  searchWindow,
  slotStart,
  usedInWindow,
  windowStart,
  type SlotCount,
} from './crm-budget-window';

/**
 * The rules of one CRM account's request budget (decision 20): permits are granted per time slot,
 * and a slot's grants count against every window that the slot, or the slot after it, overlaps.
 * Pure: the store reads the state, asks these functions, and writes the result by compare-and-set.
 */

export interface CrmBudgetState {
  /** Every permit (requests and searches), by slot; only slots still inside the request window. */
  grants: SlotCount[];
  /** Search permits, by search slot. */
  searchGrants: SlotCount[];
  /** The account's current day (YYYY-MM-DD in its time zone) and the permits granted on it. */
  day: string | null;
  usedToday: number;
  /** No request permit before this time (the CRM answered TEN_SECONDLY 429). */
  blockedUntil: number | null;
  /** No search permit before this time (the CRM answered SECONDLY 429). */
  searchBlockedUntil: number | null;
  /** No permit at all before this time (the daily cap). */
  pausedUntil: number | null;
  pauseReason: CrmPauseReason | null;
  /** The window's limit as the CRM announced it (X-HubSpot-RateLimit-Max), when it said one. */
  crmMax: number | null;
  /**
   * When the CRM's count last made the window or the day count more (another app): what it added
   * was measured against our permits, used or not, so permits granted before then are not handed
   * back (handBackPermits). Absent in budgets stored before it existed.
   */
  correctedAt?: number | null;
  /**
   * When the account's next permit is due at an even pace (virtual scheduling, crm-budget-pace.ts):
   * grants run ahead of it by a second at most, or by a lease for small limits. Absent in budgets
   * stored before pacing.
   */
  paceAt?: number | null;
}

export const emptyBudgetState = (): CrmBudgetState => ({
  grants: [],
  searchGrants: [],
  day: null,
  usedToday: 0,
  blockedUntil: null,
  searchBlockedUntil: null,
  pausedUntil: null,
  pauseReason: null,
  crmMax: null,
  correctedAt: null,
  paceAt: null,
});

/** A new day starts with nothing used, and a pause that has passed is lifted. */
export function rollBudget(state: CrmBudgetState, now: number, timeZone: string): CrmBudgetState {
  const day = localDay(now, timeZone);
  const next = { ...state };
  if (next.day !== day) {
    next.day = day;
    next.usedToday = 0;
  }
  if (next.pausedUntil !== null && next.pausedUntil <= now) {
    next.pausedUntil = null;
    next.pauseReason = null;
  }
  if (next.blockedUntil !== null && next.blockedUntil <= now) next.blockedUntil = null;
  if (next.searchBlockedUntil !== null && next.searchBlockedUntil <= now) next.searchBlockedUntil = null;
  return next;
}

export const windowLimit = (state: CrmBudgetState, limits: CrmLimits): number => Math.min(limits.burstPer10s, state.crmMax ?? Infinity);

export type GrantOutcome =
  | { outcome: 'granted'; count: number; validUntil: number; grantedAt: number; state: CrmBudgetState }
  | { outcome: 'wait'; until: number }
  | { outcome: 'paused'; until: number; reason: CrmPauseReason };

export interface GrantRequest {
  now: number;
  kind: CrmRequestKind;
  /** Permits asked for (a replica leases a few at once); fewer may be granted. */
  want: number;
  limits: CrmLimits;
  slotMs: number;
  /** How late after its slot a request may reach the CRM and still be counted right (default: one slot). */
  marginMs?: number;
}

/**
 * Grants up to `want` permits in the slot of `now`, valid until that slot ends, within the request
 * window, the daily cap and (for searches) the search window; or says until when to wait.
 */
export function grantPermits(state: CrmBudgetState, { now, kind, want, limits, slotMs, marginMs }: GrantRequest): GrantOutcome {
  const current = rollBudget(state, now, limits.timeZone);
  if (current.pausedUntil !== null) return { outcome: 'paused', until: current.pausedUntil, reason: current.pauseReason ?? 'rate-limited' };
  if (limits.dailyCap !== null && current.usedToday >= limits.dailyCap)
    return { outcome: 'paused', until: nextDailyReset(now, limits.timeZone), reason: 'daily-cap' };

  const requests = requestWindow(slotMs, marginMs);
  const limit = windowLimit(current, limits);
  const waits: number[] = [];
  if (current.blockedUntil !== null) waits.push(current.blockedUntil);
  let room = limit - usedInWindow(current.grants, now, requests);
  if (room <= 0) waits.push(nextFreeAt(current.grants, now, requests, limit));
  // At an even pace: a window spent in its first seconds leaves the machine and the account idle
  // for the rest of it, and other apps of the account without room (decision 20, addendum of 2026-11-28, later).
  const interval = paceIntervalMs(requests, limit);
  const paced = pacedRoom(current.paceAt, now, interval);
  if (paced.room <= 0) waits.push(paced.until);
  room = Math.min(room, paced.room);
  let validUntil = slotStart(now, slotMs) + slotMs;

  const searches = searchWindow(slotMs);
  const searchLimited = kind === 'search' && limits.searchPerSecond !== null;
  if (searchLimited) {
    if (current.searchBlockedUntil !== null) waits.push(current.searchBlockedUntil);
    const searchRoom = limits.searchPerSecond! - usedInWindow(current.searchGrants, now, searches);
    if (searchRoom <= 0) waits.push(nextFreeAt(current.searchGrants, now, searches, limits.searchPerSecond!));
    room = Math.min(room, searchRoom);
    validUntil = Math.min(validUntil, slotStart(now, searches.slotMs) + searches.slotMs);
  }
  if (waits.length > 0) return { outcome: 'wait', until: Math.max(...waits) };

  const count = Math.max(0, Math.min(want, room, limits.dailyCap === null ? Infinity : limits.dailyCap - current.usedToday));
  return {
    outcome: 'granted',
    count,
    validUntil,
    grantedAt: now,
    state: {
      ...current,
      grants: addToSlot(current.grants, now, count, requests),
      searchGrants: searchLimited
        ? addToSlot(current.searchGrants, now, count, searches)
        : current.searchGrants.filter((grant) => grant.at >= windowStart(now, searches)),
      usedToday: current.usedToday + count,
      paceAt: paceDue(current.paceAt, now, interval) + count * interval,
    },
  };
}

export interface ObservedAnswer {
  now: number;
  status: number;
  headers: Record<string, string | undefined>;
  body?: unknown;
  limits: CrmLimits;
  slotMs: number;
  marginMs?: number;
}

/**
 * Corrects the budget with what the CRM said: when it counts more requests in the window or the day
 * than we granted (another app uses the account), the difference is added to the current slot or
 * the day; a TEN_SECONDLY 429 blocks requests until Retry-After, or without one fills the window and
 * blocks requests for the window's length, a SECONDLY 429 blocks searches for a second (or Retry-After), a DAILY 429 pauses
 * everything until the next reset. `changed` false: nothing to write.
 */
export function correctBudget(
  state: CrmBudgetState,
  { now, status, headers, body, limits, slotMs, marginMs }: ObservedAnswer,
): { state: CrmBudgetState; changed: boolean } {
  const answer = readRateLimitAnswer(status, headers, body, now);
  const rolled = rollBudget(state, now, limits.timeZone);
  const next = { ...rolled };
  const requests = requestWindow(slotMs, marginMs);
  let changed = false;

  const aboutTheWindow = answer.intervalMs === null || answer.intervalMs === CRM_WINDOW_MS;
  if (aboutTheWindow && answer.max !== null && answer.max > 0 && answer.max < limits.burstPer10s && next.crmMax !== answer.max) {
    next.crmMax = answer.max;
    changed = true;
  }
  if (aboutTheWindow && answer.max !== null && answer.remaining !== null) {
    const theirs = answer.max - answer.remaining;
    const ours = usedInWindow(next.grants, now, requests);
    if (theirs > ours) {
      next.grants = addToSlot(next.grants, now, theirs - ours, requests);
      next.correctedAt = now;
      changed = true;
    }
  }
  if (answer.daily !== null && answer.dailyRemaining !== null) {
    const theirs = answer.daily - answer.dailyRemaining;
    if (theirs > next.usedToday) {
      next.usedToday = theirs;
      next.correctedAt = now;
      changed = true;
    }
  }

  if (answer.policy === 'daily') {
    // The CRM's own Retry-After, when it sends one, says when its day turns; else midnight in the account's zone.
    const until = answer.retryAfterMs !== null ? now + answer.retryAfterMs : nextDailyReset(now, limits.timeZone);
    if (next.pausedUntil === null || next.pausedUntil < until) {
      next.pausedUntil = until;
      next.pauseReason = 'daily-cap';
      changed = true;
    }
    if (limits.dailyCap !== null && next.usedToday < limits.dailyCap) {
      next.usedToday = limits.dailyCap;
      changed = true;
    }
  } else if (answer.policy === 'secondly') {
    const until = now + (answer.retryAfterMs ?? CRM_SEARCH_WINDOW_MS);
    if (next.searchBlockedUntil === null || next.searchBlockedUntil < until) {
      next.searchBlockedUntil = until;
      changed = true;
    }
  } else if (answer.policy === 'ten-secondly') {
    const until = now + (answer.retryAfterMs ?? answer.intervalMs ?? CRM_WINDOW_MS);
    if (next.blockedUntil === null || next.blockedUntil < until) {
      next.blockedUntil = until;
      changed = true;
    }
    // Without Retry-After the CRM's window is taken to be full: its older requests, ours or
    // another app's, leave it as our slots do, never all at once when the block ends.
    const ours = usedInWindow(next.grants, now, requests);
    const limit = windowLimit(next, limits);
    if (answer.retryAfterMs === null && ours < limit) {
      next.grants = addToSlot(next.grants, now, limit - ours, requests);
      next.correctedAt = now;
      changed = true;
    }
  }
  return { state: changed ? next : state, changed };
}
