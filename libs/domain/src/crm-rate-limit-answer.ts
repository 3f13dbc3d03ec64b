/** What a CRM answer says about the limits: rate-limit headers (lower-cased names) and a 429's policy. */
export interface RateLimitAnswer {
  /** For a 429: which limit was hit. */
  policy: 'ten-secondly' | 'daily' | 'secondly' | null;
  max: number | null;
  remaining: number | null;
  intervalMs: number | null;
  daily: number | null;
  dailyRemaining: number | null;
  retryAfterMs: number | null;
  message: string | null;
}

const headerNumber = (value: string | undefined): number | null => {
  if (value === undefined || value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : null;
};

/** Reads the rate-limit headers and a 429's body; Retry-After in seconds or as an HTTP date. */
export function readRateLimitAnswer(status: number, headers: Record<string, string | undefined>, body: unknown, now: number): RateLimitAnswer {
  const { policyName, message } = (body && typeof body === 'object' ? body : {}) as { policyName?: unknown; message?: unknown };
  let policy: RateLimitAnswer['policy'] = null;
  if (status === 429) {
    policy = policyName === 'DAILY' ? 'daily' : policyName === 'SECONDLY' ? 'secondly' : 'ten-secondly';
  }
  const retryAfter = headers['retry-after'];
  let retryAfterMs = headerNumber(retryAfter);
  if (retryAfterMs !== null) retryAfterMs *= 1000;
  else if (retryAfter && Number.isFinite(Date.parse(retryAfter))) retryAfterMs = Math.max(0, Date.parse(retryAfter) - now);
  return {
    policy,
    max: headerNumber(headers['x-hubspot-ratelimit-max']),
    remaining: headerNumber(headers['x-hubspot-ratelimit-remaining']),
    intervalMs: headerNumber(headers['x-hubspot-ratelimit-interval-milliseconds']),
    daily: headerNumber(headers['x-hubspot-ratelimit-daily']),
    dailyRemaining: headerNumber(headers['x-hubspot-ratelimit-daily-remaining']),
    retryAfterMs,
    message: typeof message === 'string' ? message : null,
  };
}
