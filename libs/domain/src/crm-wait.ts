/**
 * Why a portal's CRM work waits: the CRM said "slow down" (its ten-secondly or search limit), its
 * daily cap is reached, it did not answer (no answer, a timeout, a 5xx), or it refused the
 * connection's credentials (401: a revoked or rotated token; 403: a scope the token lacks): a
 * fault of the connection, never of the objects, which wait until it is mended.
 */
export type CrmWaitReason = 'rate-limited' | 'daily-cap' | 'unreachable' | 'unauthorized';

/** A portal whose CRM work waits, as users see it and as the applier resumes it. */
export interface CrmWait {
  reason: CrmWaitReason;
  /** When the portal started waiting (kept while one wait follows another). */
  since: number;
  /** When its work is tried again. */
  until: number;
  /** Failed tries in a row: the backoff of an unreachable CRM grows with it. */
  tries: number;
  /** The CRM's last answer, as a person can read it (status and message). */
  lastAnswer: string;
}

/** A CRM failure that makes work wait: `until` is when the CRM said to come back, if it did. */
export interface CrmWaitCause {
  reason: CrmWaitReason;
  until: number | null;
  lastAnswer: string;
}

export interface CrmWaitPolicy {
  /** First wait for an unreachable CRM, or one that refuses the credentials; doubled with every failed try. */
  firstBackoffMs: number;
  /** Longest wait for an unreachable (or refusing) CRM between two tries. */
  maxBackoffMs: number;
  /** Wait after a rate limit that named no time (one rolling window). */
  rateLimitedMs: number;
  /** Wait after a daily cap that named no reset (then tried again, and paused again if still capped). */
  dailyCapMs: number;
}

export const DEFAULT_CRM_WAIT_POLICY: CrmWaitPolicy = { firstBackoffMs: 1_000, maxBackoffMs: 60_000, rateLimitedMs: 10_000, dailyCapMs: 15 * 60_000 };

/**
 * The wait after a CRM failure: one that goes on keeps its start; an unreachable CRM, or one that
 * refuses the credentials (mended by a person at any time), is tried again with a doubling backoff
 * up to a bound; a rate limit or daily cap until the time the CRM
 * (or the shared budget) named, or a default when none was named.
 */
export function nextCrmWait(
  previous: CrmWait | null,
  cause: CrmWaitCause,
  now: number,
  policy: CrmWaitPolicy = DEFAULT_CRM_WAIT_POLICY,
  { retry = false } = {},
): CrmWait {
  // A failure while the wait is still in force comes from a request sent before the wait began
  // (another replica's, another group's): the same outage, so it does not count as one more try.
  // A retry's failure (the resume that the wait's end started) always does.
  const ongoing = !retry && previous !== null && previous.until > now;
  const tries = (previous?.tries ?? 0) + (ongoing ? 0 : 1);
  const fallback =
    cause.reason === 'unreachable' || cause.reason === 'unauthorized'
      ? Math.min(policy.maxBackoffMs, policy.firstBackoffMs * 2 ** Math.min(tries - 1, 30))
      : cause.reason === 'rate-limited'
        ? policy.rateLimitedMs
        : policy.dailyCapMs;
  const until = cause.until !== null && cause.until > now ? cause.until : now + fallback;
  return { reason: cause.reason, since: previous?.since ?? now, until, tries, lastAnswer: cause.lastAnswer };
}

/** Whether work for the portal waits at this time. */
export const isWaiting = (wait: CrmWait | null, now: number): boolean => wait !== null && wait.until > now;

/** What a person reads about a waiting portal: "rate limited until …", "CRM unreachable since …". */
export function describeCrmWait(wait: CrmWait, portalId?: number): string {
  const at = (time: number) => new Date(time).toISOString();
  const said = `; last answer: ${wait.lastAnswer}`;
  switch (wait.reason) {
    case 'rate-limited':
      return `rate limited until ${at(wait.until)}${said}`;
    case 'daily-cap':
      return `daily request cap reached; paused until ${at(wait.until)}${said}`;
    case 'unreachable':
      return `CRM unreachable since ${at(wait.since)}; next try at ${at(wait.until)}${said}`;
    case 'unauthorized':
      return `the CRM refuses the connection's credentials (a revoked or rotated token, or a missing scope) since ${at(wait.since)}: the portal's CRM connection must be entered again by the service's operator (PUT /admin/v1/portals/${portalId ?? '{portalId}'}/crm-connection), or the scope granted in the CRM; the changes wait, next try at ${at(wait.until)}${said}`;
  }
}
