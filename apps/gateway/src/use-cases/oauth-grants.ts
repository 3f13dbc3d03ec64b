import type { Repositories } from '@ecomm-sync/data-access';
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
  logger: Logger;
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

/** Spends a refresh token that is refused anyway; a failure is logged, the refusal still answered. */
async function spendQuietly({ repositories, logger }: Pick<GrantContext, 'repositories' | 'logger'>, refreshToken: string): Promise<void> {
  await repositories.credentials
    .consumeRefreshToken(refreshToken)
    .catch((error: unknown) => logger.warn('a refused refresh token could not be spent', { error: String(error) }));
}

const spentOrUnknown = () => oauthError(400, 'invalid_grant', 'The refresh token is unknown, was already used, or was revoked; install the application again');

/**
 * `grant_type=refresh_token`: the refresh token is used once; the answer carries a new access
 * token and a new refresh token. Errors follow RFC 6749 section 5.2 in their `error` code.
 *
 * The new pair is stored before the presented token is spent: a failure between the two (a
 * database error, a crash) leaves the presented token usable, so the client's retry refreshes,
 * where spending it first would have left the client with no token at all. Two refreshes with
 * the same token at once both store a pair; the one that does not get to spend the token takes
 * its pair back and is refused, as before.
 */
export async function refreshGrant(
  context: GrantContext,
  { clientId, clientSecret, refreshToken }: { clientId: string; clientSecret: string; refreshToken: string },
): Promise<TokenPair> {
  const { repositories, logger } = context;
  const application = await repositories.accounts.authenticateClient(clientId, clientSecret);
  if (!application) throw oauthError(401, 'invalid_client', 'Unknown client_id or wrong client_secret');
  const presented = await repositories.credentials.resolve(refreshToken);
  if (presented?.kind !== 'refresh-token') throw spentOrUnknown();
  if (presented.appId !== application.appId) {
    // Somebody else's refresh token: it is spent now, which is the safe outcome.
    await spendQuietly(context, refreshToken);
    logger.warn('a refresh token was presented by another application', { appId: application.appId });
    throw oauthError(400, 'invalid_grant', 'The refresh token was not issued to this client');
  }
  if (!(await repositories.accounts.findInstall(presented.portalId!, application.appId))) {
    await spendQuietly(context, refreshToken);
    throw oauthError(400, 'invalid_grant', 'The application is no longer installed in this portal');
  }
  const { pair, credentialIds } = await issuePair(context, presented.portalId!, application.appId);
  const spent = await repositories.credentials.consumeRefreshToken(refreshToken).catch(async (error: unknown) => {
    // Whether the token was spent is not known: the pair is taken back, and the client tries again.
    await revokeQuietly(context, credentialIds);
    throw error;
  });
  if (!spent) {
    // Another refresh spent it first: the pair stored here was never given to anyone.
    await revokeQuietly(context, credentialIds);
    throw spentOrUnknown();
  }
  return pair;
}
