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
export async function issueTokens({ repositories, clock, accessTokenTtlSeconds: ttl }: GrantContext, portalId: number, appId: string): Promise<TokenPair> {
  const now = clock();
  const [access, refresh] = await Promise.all([
    repositories.credentials.issue('access-token', { portalId, appId, expiresAt: now + ttl * 1000 }, now),
    repositories.credentials.issue('refresh-token', { portalId, appId }, now),
  ]);
  return { accessToken: access.secret, refreshToken: refresh.secret, expiresIn: ttl };
}

/**
 * `grant_type=refresh_token`: the refresh token is used once; the answer carries a new access
 * token and a new refresh token. Errors follow RFC 6749 section 5.2 in their `error` code.
 */
export async function refreshGrant(
  context: GrantContext,
  { clientId, clientSecret, refreshToken }: { clientId: string; clientSecret: string; refreshToken: string },
): Promise<TokenPair> {
  const { repositories, logger } = context;
  const application = await repositories.accounts.authenticateClient(clientId, clientSecret);
  if (!application) throw oauthError(401, 'invalid_client', 'Unknown client_id or wrong client_secret');
  const used = await repositories.credentials.consumeRefreshToken(refreshToken);
  if (!used) throw oauthError(400, 'invalid_grant', 'The refresh token is unknown, was already used, or was revoked; install the application again');
  if (used.appId !== application.appId) {
    // Somebody else's refresh token: it is spent now, which is the safe outcome.
    logger.warn('a refresh token was presented by another application', { appId: application.appId });
    throw oauthError(400, 'invalid_grant', 'The refresh token was not issued to this client');
  }
  if (!(await repositories.accounts.findInstall(used.portalId!, application.appId))) {
    throw oauthError(400, 'invalid_grant', 'The application is no longer installed in this portal');
  }
  return issueTokens(context, used.portalId!, application.appId);
}
