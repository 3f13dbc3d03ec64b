/** What the OAuth grants share: their context, errors, and storing or taking back tokens. */
import type { InstallKey, Repositories } from '@ecomm-sync/data-access';
import { AppError, type Logger } from '@ecomm-sync/runtime';
import { REFRESH_WINDOW_SECONDS, REFRESHES_PER_INSTALL, type WindowCounter } from './oauth-refresh-limit';

/** What an install's token grant answers (RFC 6749 section 5.1, in our field names). */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives. */
  expiresIn: number;
}

export interface GrantContext {
  repositories: Pick<Repositories, 'accounts' | 'credentials'>;
  clock: () => number;
  accessTokenTtlSeconds: number;
  /** Whether a refresh answers a new refresh token and spends the presented one; otherwise it lasts, as the vendor's do. */
  rotateRefreshTokens: boolean;
  /** With rotation: how long a spent refresh token may be presented again when the answer to its use was lost (0: never). */
  refreshReuseSeconds: number;
  /**
   * How many of an install's access tokens are kept: a grant beyond it (a refresh, an install) deletes the oldest, so
   * a client that refreshes in a loop cannot fill the database (each token would live its whole life). 0: no limit.
   */
  accessTokensPerInstall: number;
  /**
   * How many refreshes one install may make per `refreshWindowSeconds` in this replica (0: no limit): each is a
   * grant that writes, so a client that refreshes in a loop is held to it (`admitRefresh`).
   */
  refreshesPerInstall: number;
  refreshWindowSeconds: number;
  /** Counts refreshes in their windows (this replica's memory). */
  refreshes: WindowCounter;
  /** Tokens of the install were deleted (a lost pair, those beyond the limit): every replica drops the install's cached tokens. */
  onTokensDeleted: (install: InstallKey) => Promise<void>;
  logger: Logger;
}

/** The grants' settings: refresh tokens last unless `rotateRefreshTokens`; the others default as `grantSettings` says. */
export type GrantOptions = Pick<GrantContext, 'accessTokenTtlSeconds' | 'onTokensDeleted' | 'refreshes'> &
  Partial<Pick<GrantContext, 'rotateRefreshTokens' | 'refreshReuseSeconds' | 'accessTokensPerInstall' | 'refreshesPerInstall' | 'refreshWindowSeconds'>>;

export type GrantSettings = Pick<
  GrantContext,
  'accessTokenTtlSeconds' | 'rotateRefreshTokens' | 'refreshReuseSeconds' | 'accessTokensPerInstall' | 'refreshesPerInstall' | 'refreshWindowSeconds'
>;

/** The grants' settings with their defaults: the one place they are chosen (the gateway logs these at start-up). */
export function grantSettings(options: Partial<GrantSettings>): GrantSettings {
  return {
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS,
    rotateRefreshTokens: options.rotateRefreshTokens ?? false,
    refreshReuseSeconds: options.refreshReuseSeconds ?? REFRESH_REUSE_SECONDS,
    accessTokensPerInstall: options.accessTokensPerInstall ?? ACCESS_TOKENS_PER_INSTALL,
    refreshesPerInstall: options.refreshesPerInstall ?? REFRESHES_PER_INSTALL,
    refreshWindowSeconds: options.refreshWindowSeconds ?? REFRESH_WINDOW_SECONDS,
  };
}

export function grantContext(base: Pick<GrantContext, 'repositories' | 'clock' | 'logger'>, options: GrantOptions): GrantContext {
  return { ...base, ...grantSettings(options), refreshes: options.refreshes, onTokensDeleted: options.onTokensDeleted };
}

/** An OAuth error: our error body, plus RFC 6749's `error` code for OAuth client libraries. */
export function oauthError(status: number, code: string, message: string): AppError {
  return new AppError(status, message, {}, { error: code, error_description: message });
}

/** How long an access token lives by default (OAUTH_ACCESS_TOKEN_TTL_S): 30 minutes, as the vendor's. */
export const ACCESS_TOKEN_TTL_SECONDS = 1800;

/**
 * How many of an install's access tokens are kept by default (OAUTH_ACCESS_TOKENS_PER_INSTALL):
 * room for a hundred processes that each refresh for themselves, as Google allows a hundred refresh
 * tokens per account and client before the oldest stops working.
 */
export const ACCESS_TOKENS_PER_INSTALL = 100;

/** How long a spent refresh token may be presented again by default (OAUTH_REFRESH_REUSE_S): the longest grace Okta allows. */
export const REFRESH_REUSE_SECONDS = 60;

/** Stores a new access token for an install, living `accessTokenTtlSeconds` from now. */
export async function issueAccessToken({ repositories, clock, accessTokenTtlSeconds: ttl }: GrantContext, install: InstallKey, now = clock()) {
  return repositories.credentials.issue('access-token', { ...install, expiresAt: now + ttl * 1000 }, now);
}

/** Stores a new access token and refresh token for an install; half a pair is never left. */
export async function issuePair(context: GrantContext, install: InstallKey) {
  const { repositories, clock, accessTokenTtlSeconds: ttl, logger } = context;
  const now = clock();
  const issued = await Promise.allSettled([issueAccessToken(context, install, now), repositories.credentials.issue('refresh-token', install, now)]);
  const [access, refresh] = issued;
  if (access.status === 'rejected' || refresh.status === 'rejected') {
    // Half a pair is given to nobody: the half that was stored goes (a refresh token would never expire).
    const stored = issued.flatMap((one) => (one.status === 'fulfilled' ? [one.value.credential.credentialId] : []));
    await revokeQuietly({ repositories, logger }, stored);
    throw (access.status === 'rejected' ? access : (refresh as PromiseRejectedResult)).reason;
  }
  return {
    pair: { accessToken: access.value.secret, refreshToken: refresh.value.secret, expiresIn: ttl },
    credentialIds: [access.value.credential.credentialId, refresh.value.credential.credentialId],
  };
}

/** Revokes credentials given to nobody; a failure is logged, not answered: they were never handed out. */
export async function revokeQuietly({ repositories, logger }: Pick<GrantContext, 'repositories' | 'logger'>, credentialIds: readonly string[]): Promise<void> {
  await Promise.all(
    credentialIds.map((id) =>
      repositories.credentials
        .revoke(id)
        .catch((error: unknown) => logger.warn('a credential given to nobody could not be revoked', { credentialId: id, error: String(error) })),
    ),
  );
}

/**
 * Whether the presented token now names the pair whose refresh token is `refreshTokenId`: after a
 * write to it failed, what tells whether the write applied all the same (its answer was lost).
 */
export async function namesPair({ repositories }: Pick<GrantContext, 'repositories'>, refreshToken: string, refreshTokenId: string): Promise<boolean> {
  const stored = await repositories.credentials.resolve(refreshToken).catch(() => null);
  return stored?.spent?.refreshTokenId === refreshTokenId;
}

export const spentOrUnknown = () =>
  oauthError(400, 'invalid_grant', 'The refresh token is unknown, was already used, or was revoked; install the application again');

export const noLongerInstalled = () => oauthError(400, 'invalid_grant', 'The application is no longer installed in this portal');

/**
 * What every refresh stores its tokens through (the lasting one, rotation's, a lost answer's retry):
 * `store`, then the install read again. An app removal (removeApplication, app-removal.ts) removes the
 * install, then deletes its tokens (again: it deleted them first too, before cleaning up the tenant):
 * gone here, the stored tokens are taken back and the refresh refused; still here, the uninstall's
 * last delete starts after they were stored and takes them with the others, even on a database whose
 * delete of many documents is not one atomic step. A failed read takes them back too, before anything
 * was spent, so the client's retry refreshes.
 */
export async function storedWhileInstalled<T extends { credentialIds: readonly string[] }>(
  context: GrantContext,
  install: InstallKey,
  store: () => Promise<T>,
): Promise<T> {
  const issued = await store();
  const found = await context.repositories.accounts.findInstall(install.portalId, install.appId).catch(async (error: unknown) => {
    await revokeQuietly(context, issued.credentialIds);
    throw error;
  });
  if (found) return issued;
  await revokeQuietly(context, issued.credentialIds);
  throw noLongerInstalled();
}
