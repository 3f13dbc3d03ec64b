import type { Credential, Repositories, RefreshTokenSpend } from '@ecomm-sync/data-access';
import { refreshReuse } from '@ecomm-sync/domain';
import { AppError, type Logger } from '@ecomm-sync/runtime';

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
  /** Access was taken away (a lost pair revoked): every replica drops its cached look-ups. */
  onAccessChanged: () => Promise<void>;
  logger: Logger;
}

/** The grants' settings: refresh tokens last unless `rotateRefreshTokens`; `refreshReuseSeconds` defaults to REFRESH_REUSE_SECONDS. */
export type GrantOptions = Pick<GrantContext, 'accessTokenTtlSeconds' | 'onAccessChanged'> &
  Partial<Pick<GrantContext, 'rotateRefreshTokens' | 'refreshReuseSeconds'>>;

export function grantContext(base: Pick<GrantContext, 'repositories' | 'clock' | 'logger'>, options: GrantOptions): GrantContext {
  const { accessTokenTtlSeconds, rotateRefreshTokens = false, refreshReuseSeconds = REFRESH_REUSE_SECONDS, onAccessChanged } = options;
  return { ...base, accessTokenTtlSeconds, rotateRefreshTokens, refreshReuseSeconds, onAccessChanged };
}

/** An OAuth error: our error body, plus RFC 6749's `error` code for OAuth client libraries. */
export function oauthError(status: number, code: string, message: string): AppError {
  return new AppError(status, message, {}, { error: code, error_description: message });
}

/** A new access token (living `accessTokenTtlSeconds`) and refresh token for an install. */
export async function issueTokens(context: GrantContext, portalId: number, appId: string): Promise<TokenPair> {
  return (await issuePair(context, portalId, appId)).pair;
}

async function issuePair({ repositories, clock, accessTokenTtlSeconds: ttl, logger }: GrantContext, portalId: number, appId: string) {
  const now = clock();
  const issued = await Promise.allSettled([
    repositories.credentials.issue('access-token', { portalId, appId, expiresAt: now + ttl * 1000 }, now),
    repositories.credentials.issue('refresh-token', { portalId, appId }, now),
  ]);
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

/** A new access token for an install, beside its lasting refresh token. */
async function issueAccessToken({ repositories, clock, accessTokenTtlSeconds: ttl }: GrantContext, install: { portalId: number; appId: string }) {
  const { secret } = await repositories.credentials.issue('access-token', { ...install, expiresAt: clock() + ttl * 1000 }, clock());
  return { accessToken: secret, expiresIn: ttl };
}

/** Revokes credentials given to nobody; a failure is logged, not answered: they were never handed out. */
async function revokeQuietly({ repositories, logger }: Pick<GrantContext, 'repositories' | 'logger'>, credentialIds: readonly string[]): Promise<void> {
  await Promise.all(
    credentialIds.map((id) =>
      repositories.credentials
        .revoke(id)
        .catch((error: unknown) => logger.warn('a credential given to nobody could not be revoked', { credentialId: id, error: String(error) })),
    ),
  );
}

/** How long a spent refresh token may be presented again by default (OAUTH_REFRESH_REUSE_S): the longest grace Okta allows. */
export const REFRESH_REUSE_SECONDS = 60;

/**
 * Whether the presented token now names the pair whose refresh token is `refreshTokenId`: after a
 * write to it failed, what tells whether the write applied all the same (its answer was lost).
 */
async function namesPair({ repositories }: Pick<GrantContext, 'repositories'>, refreshToken: string, refreshTokenId: string): Promise<boolean> {
  const stored = await repositories.credentials.resolve(refreshToken).catch(() => null);
  return stored?.spent?.refreshTokenId === refreshTokenId;
}

const spentOrUnknown = () => oauthError(400, 'invalid_grant', 'The refresh token is unknown, was already used, or was revoked; install the application again');

/**
 * `grant_type=refresh_token`: a new access token. Errors follow RFC 6749 section 5.2 in their
 * `error` code. As the vendor's, a refresh token lasts until the install or the token is revoked:
 * the answer carries the presented one again (an application that keeps the refresh token of its
 * install, as the vendor's documentation tells it to, goes on refreshing with it), and earlier
 * access tokens live out their time.
 *
 * With `rotateRefreshTokens` (decision 12, addendum of 2026-12-05, later) the refresh token is used
 * once; the answer carries a new access token and a new refresh token.
 *
 * The new pair is stored before the presented token is spent: a failure between the two (a
 * database error, a crash) leaves the presented token usable, so the client's retry refreshes,
 * where spending it first would have left the client with no token at all. Two refreshes with
 * the same token at once both store a pair; the one that does not get to spend the token takes
 * its pair back and is refused. A spent token is kept, marked with the pair it bought, for
 * `refreshReuseSeconds`: presented again in that time, while neither token of that pair was used
 * (the answer was lost), it buys a new pair and the lost one is revoked (`reissueLostPair`).
 */
export async function refreshGrant(
  context: GrantContext,
  { clientId, clientSecret, refreshToken }: { clientId: string; clientSecret: string; refreshToken: string },
): Promise<TokenPair> {
  const { repositories, logger, clock } = context;
  const application = await repositories.accounts.authenticateClient(clientId, clientSecret);
  if (!application) throw oauthError(401, 'invalid_client', 'Unknown client_id or wrong client_secret');
  const presented = await repositories.credentials.resolve(refreshToken);
  if (presented?.kind !== 'refresh-token') throw spentOrUnknown();
  if (presented.appId !== application.appId) {
    // Somebody else's refresh token: it is revoked now, which is the safe outcome.
    await revokeQuietly(context, [presented.credentialId]);
    logger.warn('a refresh token was presented by another application', { appId: application.appId });
    throw oauthError(400, 'invalid_grant', 'The refresh token was not issued to this client');
  }
  const install = { portalId: presented.portalId!, appId: application.appId };
  if (!(await repositories.accounts.findInstall(install.portalId, install.appId))) {
    await revokeQuietly(context, [presented.credentialId]);
    throw oauthError(400, 'invalid_grant', 'The application is no longer installed in this portal');
  }
  // A token spent while rotation was on goes on by its rules after rotation is turned off.
  if (presented.spent) return reissueLostPair(context, refreshToken, presented, presented.spent);
  if (!context.rotateRefreshTokens) {
    const access = await issueAccessToken(context, install);
    await tidyInstall(context, install);
    return { ...access, refreshToken };
  }
  const { pair, credentialIds } = await issuePair(context, install.portalId, install.appId);
  const [accessTokenId, refreshTokenId] = credentialIds;
  const now = clock();
  const spent = await repositories.credentials.spendRefreshToken(refreshToken, { at: now, accessTokenId, refreshTokenId }).catch(async (error: unknown) => {
    // The spend may have applied all the same: then the pair is the client's. Otherwise it is taken back, and the client tries again.
    if (await namesPair(context, refreshToken, refreshTokenId)) return true;
    await revokeQuietly(context, credentialIds);
    throw error;
  });
  if (!spent) {
    // Another refresh spent it first: the pair stored here was never given to anyone.
    await revokeQuietly(context, credentialIds);
    throw spentOrUnknown();
  }
  await tidyInstall(context, install);
  return pair;
}

/**
 * What an install's refreshes leave behind goes at its next refresh: access tokens expired and
 * refresh tokens spent before the reuse grace (an expired access token stays through the grace, so
 * a lost pair's verdict can still read its use). A failure leaves them for the next refresh.
 */
async function tidyInstall({ repositories, clock, logger, refreshReuseSeconds }: GrantContext, install: { portalId: number; appId: string }): Promise<void> {
  const before = clock() - refreshReuseSeconds * 1000;
  await Promise.all([
    repositories.credentials.deleteExpiredAccessTokens(install, before),
    repositories.credentials.deleteSpentRefreshTokens(install, before),
  ]).catch((error: unknown) => logger.warn('expired or spent tokens could not be deleted', { error: String(error) }));
}

/**
 * A spent refresh token presented again (decision 12, addendum of 2026-12-05). Within the grace and
 * while neither token of the pair its use bought was used, the answer is taken to have been lost:
 * a new pair is stored, the token is moved on to it (of two retries at once, one moves it), and the
 * lost pair is revoked. Each of its tokens goes only while still unused (compare-and-set against
 * its use), so a pair that did reach its client and was used since is never replaced: the new pair
 * is then taken back and refused.
 */
async function reissueLostPair(context: GrantContext, refreshToken: string, presented: Credential, spend: RefreshTokenSpend): Promise<TokenPair> {
  const { repositories, logger, clock } = context;
  const [successor, successorAccess] = await Promise.all([
    repositories.credentials.find(spend.refreshTokenId),
    repositories.credentials.find(spend.accessTokenId),
  ]);
  // The pair reached its client if either token of it was used: to refresh, or to call the API.
  const used = successor?.spent !== undefined || successorAccess?.usedAt !== undefined;
  const verdict = refreshReuse({ spentAt: spend.at, successor: !successor ? 'gone' : used ? 'used' : 'unused' }, clock(), context.refreshReuseSeconds * 1000);
  const where = { portalId: presented.portalId, appId: presented.appId };
  if (verdict !== 'reissue') {
    if (verdict === 'past-grace') await revokeQuietly(context, [presented.credentialId]);
    logger.warn('a spent refresh token was presented again and refused', { ...where, reason: verdict });
    throw spentOrUnknown();
  }
  const { pair, credentialIds } = await issuePair(context, presented.portalId!, presented.appId!);
  const [accessTokenId, refreshTokenId] = credentialIds;
  const moved = await repositories.credentials
    .passOnRefreshToken(refreshToken, spend.refreshTokenId, { accessTokenId, refreshTokenId })
    .catch(async (error: unknown) => {
      if (await namesPair(context, refreshToken, refreshTokenId)) return true;
      await revokeQuietly(context, credentialIds);
      throw error;
    });
  // The lost pair goes only if nobody used it meanwhile; otherwise its client has it, and this is a replay.
  // Its access token first: a client that used it may still refresh with the refresh token.
  const lostRevoked =
    moved &&
    (await revokeLostPair(context, spend).catch(async (error: unknown) => {
      // Not known to be gone: the new pair is not handed out beside it. The token now names that
      // revoked pair, so the client's retry is refused (decision 12, addendum of 2026-12-05).
      await revokeQuietly(context, credentialIds);
      throw error;
    }));
  if (!lostRevoked) {
    await revokeQuietly(context, credentialIds);
    const reason = moved ? 'the lost pair was used or revoked meanwhile' : 'another retry came at once';
    logger.warn('a spent refresh token was presented again and refused', { ...where, reason });
    throw spentOrUnknown();
  }
  await context.onAccessChanged();
  logger.info('a refresh whose answer was lost was answered again', where);
  return pair;
}

/** Deletes the lost pair while neither token of it is used: its access token, then its refresh token. */
async function revokeLostPair(context: Pick<GrantContext, 'repositories'>, spend: RefreshTokenSpend): Promise<boolean> {
  const { credentials } = context.repositories;
  return (
    (await revokeUnused(context, spend.accessTokenId, (id) => credentials.revokeUnusedAccessToken(id))) &&
    (await revokeUnused(context, spend.refreshTokenId, (id) => credentials.revokeUnusedRefreshToken(id)))
  );
}

/** A conditional delete; one whose answer was lost counts when the credential is gone. */
async function revokeUnused(
  { repositories }: Pick<GrantContext, 'repositories'>,
  credentialId: string,
  revoke: (credentialId: string) => Promise<boolean>,
): Promise<boolean> {
  try {
    return await revoke(credentialId);
  } catch (error) {
    const left = await repositories.credentials.find(credentialId).catch(() => {
      throw error;
    });
    if (left === null) return true;
    throw error;
  }
}
