/**
 * The hosted CRM's request limits, as the built-in CRM emulates them (decision 0021): pure rules
 * over times in epoch milliseconds. The per-process state lives in limits/request-ledger.ts.
 */

/** The hosted CRM's names of its limits, as its 429 bodies carry them in `policyName`. */
export type LimitPolicy = 'DAILY' | 'TEN_SECONDLY_ROLLING' | 'SECONDLY';

/** An account's limits; `null` where an account has them switched off. */
export interface HostedLimits {
  /** Requests in any rolling window of `intervalMs` (hosted tiers: 100, 190, 250 per 10 s). */
  burstPer10s: number;
  /** The rolling window's length: 10 000 as hosted; shorter only for tests against a real clock. */
  intervalMs: number;
  /** Requests per day (hosted tiers: 250 000, 625 000, 1 000 000), counted from midnight in `timeZone`. */
  dailyCap: number;
  /** IANA time zone of the account: its midnight resets the daily count. */
  timeZone: string;
  /** Search requests (any POST .../search) in any rolling second (hosted: about 4). */
  searchPerSecond: number;
  /** A property value that marks a batch input invalid, answered in a 207 (emulates the hosted partial failures). */
  invalidMarker?: string;
}

export const HOSTED_INTERVAL_MS = 10_000;
const SEARCH_WINDOW_MS = 1_000;

export const LIMIT_MESSAGES: Record<LimitPolicy, string> = {
  DAILY: 'You have reached your daily limit.',
  TEN_SECONDLY_ROLLING: 'You have reached your ten secondly limit.',
  SECONDLY: 'You have reached your secondly limit.',
};

/** The limits in force: the account's own, switched off (`null`), or, where it has none, the environment's. */
export const effectiveLimits = (own: HostedLimits | null | undefined, environment: HostedLimits | null): HostedLimits | null =>
  own === undefined ? environment : own;

/** Whether a request is a search, limited per second on top of the other limits. */
export const isSearchRequest = (method: string, path: string): boolean => method.toUpperCase() === 'POST' && /\/search\/?$/.test(path);

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Whole seconds a client waits until `readyAt`: at least 1, as Retry-After is read as whole seconds. */
export const retryAfterSeconds = (readyAt: number, now: number): number => Math.max(1, Math.ceil((readyAt - now) / 1000));

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in a time zone, as yyyymmdd. */
function localDay(at: number, timeZone: string): number {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
    dateFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return Number(parts.year) * 10_000 + Number(parts.month) * 100 + Number(parts.day);
}

/**
 * The first instant after `now` that falls on a later day in `timeZone`: its next midnight, or the
 * first instant of the next day where a daylight-saving change skips midnight. Found by bisection
 * on the calendar day, so any offset (half hours, 45 minutes) and any transition is exact.
 */
export function nextMidnight(now: number, timeZone: string): number {
  const today = localDay(now, timeZone);
  let before = now; // on today
  let after = now + 50 * 3_600_000; // on a later day, whatever the offset change
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (localDay(middle, timeZone) > today) after = middle;
    else before = middle;
  }
  return after;
}

/** What an account has used, as the ledger counts it at the moment a request arrives. */
export interface UsageAtArrival {
  now: number;
  /** Admitted requests in the rolling window, and when the oldest of them came. */
  inWindow: number;
  oldestInWindow?: number;
  /** Admitted requests since the last daily reset, and when the next reset is; null: the request has no daily limit (OAuth). */
  dailyUsed: number | null;
  dailyResetAt: number;
  /** Admitted searches in the last second, and when the oldest of them came. */
  searchesInSecond: number;
  oldestSearch?: number;
}

export type Verdict = { admitted: true } | { admitted: false; policy: LimitPolicy; retryAfterSeconds: number };

/**
 * Whether a request is admitted. A refused one names the first limit it breaks, in the order
 * DAILY, TEN_SECONDLY_ROLLING, SECONDLY, and waits until every limit it breaks has room again.
 */
export function decide(limits: HostedLimits, usage: UsageAtArrival, search: boolean): Verdict {
  const broken: { policy: LimitPolicy; readyAt: number }[] = [];
  if (usage.dailyUsed !== null && usage.dailyUsed >= limits.dailyCap) broken.push({ policy: 'DAILY', readyAt: usage.dailyResetAt });
  if (usage.inWindow >= limits.burstPer10s) broken.push({ policy: 'TEN_SECONDLY_ROLLING', readyAt: (usage.oldestInWindow ?? usage.now) + limits.intervalMs });
  if (search && usage.searchesInSecond >= limits.searchPerSecond)
    broken.push({ policy: 'SECONDLY', readyAt: (usage.oldestSearch ?? usage.now) + SEARCH_WINDOW_MS });
  if (broken.length === 0) return { admitted: true };
  const readyAt = Math.max(...broken.map((limit) => limit.readyAt));
  return { admitted: false, policy: broken[0].policy, retryAfterSeconds: retryAfterSeconds(readyAt, usage.now) };
}

/**
 * The hosted CRM's rate-limit headers, with what is left after the request was counted. A request
 * without a daily limit (`dailyUsed` null: OAuth) gets no daily headers, as the hosted CRM's
 * changelog says: "OAuth authenticated calls will not include X-HubSpot-RateLimit-Daily or
 * X-HubSpot-RateLimit-Daily-Remaining because there is no daily limit for these calls".
 */
export function limitHeaders(limits: HostedLimits, used: { inWindow: number; dailyUsed: number | null }): Record<string, string> {
  const headers: Record<string, string> = {
    'X-HubSpot-RateLimit-Max': String(limits.burstPer10s),
    'X-HubSpot-RateLimit-Remaining': String(Math.max(0, limits.burstPer10s - used.inWindow)),
    'X-HubSpot-RateLimit-Interval-Milliseconds': String(limits.intervalMs),
  };
  if (used.dailyUsed === null) return headers;
  headers['X-HubSpot-RateLimit-Daily'] = String(limits.dailyCap);
  headers['X-HubSpot-RateLimit-Daily-Remaining'] = String(Math.max(0, limits.dailyCap - used.dailyUsed));
  return headers;
}

export { RollingWindow } from './rolling-window';
