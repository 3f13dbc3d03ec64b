import { CRM_TIER_LIMITS, DEFAULT_CRM_TIER, type CrmConnection, type CrmConnectionInput, type CrmLimits, type CrmTier } from '@ecomm-sync/contracts';

/** A connection the admin asked for that cannot be used as given; the message says what to fix. */
export class CrmConnectionInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrmConnectionInputError';
  }
}

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** The tier's limits (the default tier's when none is named), with the given fields in their place. */
export function resolveCrmLimits(tier: CrmTier | undefined, overrides: Partial<CrmLimits> = {}): CrmLimits {
  const base = CRM_TIER_LIMITS[tier ?? DEFAULT_CRM_TIER];
  const limits: CrmLimits = {
    burstPer10s: overrides.burstPer10s ?? base.burstPer10s,
    dailyCap: overrides.dailyCap === undefined ? base.dailyCap : overrides.dailyCap,
    timeZone: overrides.timeZone ?? base.timeZone,
    searchPerSecond: overrides.searchPerSecond === undefined ? base.searchPerSecond : overrides.searchPerSecond,
  };
  if (!isTimeZone(limits.timeZone))
    throw new CrmConnectionInputError(`limits.timeZone "${limits.timeZone}" is not an IANA time zone (such as UTC or Europe/Berlin)`);
  return limits;
}

/**
 * The connection an admin request (validated against `crmConnectionInputSchema`) stands for. The
 * built-in CRM has no limits unless a tier or limits are given (then it emulates them, for tests
 * and benchmarks); a hosted CRM always has limits, its tier's by default, but for an OAuth
 * connection no daily cap unless `limits.dailyCap` names one.
 */
export function toCrmConnection(input: CrmConnectionInput): CrmConnection {
  if (input.kind === 'builtin') {
    const emulate = input.tier !== undefined || (input.limits !== undefined && input.limits !== null);
    return { kind: 'builtin', limits: emulate ? resolveCrmLimits(input.tier, input.limits ?? {}) : null };
  }
  let url: URL;
  try {
    url = new URL(input.baseUrl);
  } catch {
    throw new CrmConnectionInputError(`baseUrl "${input.baseUrl}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CrmConnectionInputError(`baseUrl must be an http or https URL, got "${input.baseUrl}"`);
  if (url.username || url.password || url.search || url.hash)
    throw new CrmConnectionInputError('baseUrl must not carry credentials, a query or a fragment: give them in auth');
  const baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const limits = resolveCrmLimits(input.tier, input.limits ?? {});
  // The vendor's OAuth calls have no daily limit (its changelog: "there is no daily limit for these calls"); the tier's is a private app's.
  if (input.auth.type === 'oauth' && input.limits?.dailyCap === undefined) limits.dailyCap = null;
  return { kind: 'hosted', baseUrl, auth: input.auth, limits };
}
