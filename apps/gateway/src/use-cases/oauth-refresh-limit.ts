import type { Credential, InstallKey } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/runtime';
import type { GrantContext, GrantSettings } from './oauth-tokens';

/** Counts per key in fixed windows (a replica's memory): `count` adds one and answers the key's count in its window. */
export interface WindowCounter {
  count(key: string): Promise<{ hits: number; retryAfterSeconds: number }>;
}

/**
 * How many refreshes one install may make per window by default (OAUTH_REFRESH_LIMIT per OAUTH_REFRESH_WINDOW_S in a
 * replica): a hundred processes that each refresh for themselves, at once.
 */
export const REFRESHES_PER_INSTALL = 100;
export const REFRESH_WINDOW_SECONDS = 60;

/** A lost answer's retries of one spent refresh token that pass without counting against its install. */
export const FREE_RETRIES_PER_SPENT_TOKEN = 3;

/**
 * Counts a refresh against its install (decision 12, addendum of 2026-12-06), called once the
 * client authenticated and its token resolved to a refresh token of a live install (spent ones
 * included): whoever knows only a client_id, or holds no such token, spends nothing. Over the limit:
 * 429. A lost answer's retry (a spent token) was counted at its spend, and a 429 could send it past
 * its grace for good: its first few pass uncounted, more count as any refresh.
 */
export async function admitRefresh(context: GrantContext, install: InstallKey, presented: Credential): Promise<void> {
  if (context.refreshesPerInstall <= 0) return;
  if (presented.spent && (await context.refreshes.count(`retry:${presented.credentialId}`)).hits <= FREE_RETRIES_PER_SPENT_TOKEN) return;
  const { hits, retryAfterSeconds } = await context.refreshes.count(`install:${install.portalId}:${install.appId}`);
  if (hits <= context.refreshesPerInstall) return;
  // Once a window: a client refreshing in a loop would write a line a request.
  if (hits === context.refreshesPerInstall + 1)
    context.logger.warn('an install refreshed more often than it may: refused until its window ends', {
      ...install,
      refreshesPerInstall: context.refreshesPerInstall,
      refreshWindowSeconds: context.refreshWindowSeconds,
    });
  throw tooManyRefreshes(context, retryAfterSeconds);
}

/** 429 for an install over its refreshes. `temporarily_unavailable` is borrowed from RFC 6749's authorization errors: the token endpoint's list has none for "later". */
export const tooManyRefreshes = ({ refreshesPerInstall, refreshWindowSeconds }: GrantSettings, retryAfterSeconds: number): AppError => {
  const message = `Too many refreshes: an install may refresh ${refreshesPerInstall} times per ${refreshWindowSeconds} s; wait Retry-After seconds, and refresh once per access token's life (expires_in)`;
  return new AppError(429, message, { 'retry-after': String(retryAfterSeconds) }, { error: 'temporarily_unavailable', error_description: message });
};
