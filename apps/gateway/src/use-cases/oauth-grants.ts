import type { InstallKey } from '@ecomm-sync/data-access';
import { reissueLostPair } from './oauth-lost-refresh';
import { admitRefresh } from './oauth-refresh-limit';
import { tidyInstall } from './oauth-tidy';
import {
  issueAccessToken,
  issuePair,
  namesPair,
  noLongerInstalled,
  oauthError,
  revokeQuietly,
  spentOrUnknown,
  storedWhileInstalled,
  type GrantContext,
  type TokenPair,
} from './oauth-tokens';

export { grantContext, oauthError, type GrantContext, type GrantOptions, type TokenPair } from './oauth-tokens';

/**
 * A new access token (living `accessTokenTtlSeconds`) and refresh token for an install; the install's
 * access tokens beyond its limit go, as after a refresh (`tidyInstall`).
 */
export async function issueTokens(context: GrantContext, portalId: number, appId: string): Promise<TokenPair> {
  const install = { portalId, appId };
  const { pair, credentialIds } = await issuePair(context, install);
  await tidyInstall(context, install, credentialIds[0]);
  return pair;
}

/**
 * A new access token beside the lasting refresh token, answered with it. An uninstall or a revocation
 * of the refresh token between the checks and the insert would leave the new token working for its
 * whole life: the install (storedWhileInstalled) and then the refresh token are read again after
 * the insert, and either gone, the new token goes too.
 */
async function lastingRefresh(context: GrantContext, install: InstallKey, refreshToken: string): Promise<TokenPair> {
  const { secret, credentialIds } = await storedWhileInstalled(context, install, async () => {
    const { secret, credential } = await issueAccessToken(context, install);
    return { secret, credentialIds: [credential.credentialId] };
  });
  const still = await context.repositories.credentials.resolve(refreshToken).catch(async (error: unknown) => {
    await revokeQuietly(context, credentialIds);
    throw error;
  });
  if (still?.kind !== 'refresh-token' || still.spent) {
    await revokeQuietly(context, credentialIds);
    throw spentOrUnknown();
  }
  await tidyInstall(context, install, credentialIds[0]);
  return { accessToken: secret, refreshToken, expiresIn: context.accessTokenTtlSeconds };
}

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
 * In either mode, tokens a refresh stores while the install is being removed are taken back
 * (`storedWhileInstalled`).
 */
export async function refreshGrant(
  context: GrantContext,
  { clientId, clientSecret, refreshToken }: { clientId: string; clientSecret: string; refreshToken: string },
): Promise<TokenPair> {
  const { repositories, logger, clock } = context;
  // Two reads that need nothing of each other, at once; the client's answer still comes first.
  const [application, presented] = await Promise.all([
    repositories.accounts.authenticateClient(clientId, clientSecret),
    repositories.credentials.resolve(refreshToken),
  ]);
  if (!application) throw oauthError(401, 'invalid_client', 'Unknown client_id or wrong client_secret');
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
    throw noLongerInstalled();
  }
  await admitRefresh(context, install, presented);
  // A token spent while rotation was on goes on by its rules after rotation is turned off.
  if (presented.spent) return reissueLostPair(context, refreshToken, presented, presented.spent);
  if (!context.rotateRefreshTokens) return lastingRefresh(context, install, refreshToken);
  const { pair, credentialIds } = await storedWhileInstalled(context, install, () => issuePair(context, install));
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
  await tidyInstall(context, install, accessTokenId);
  return pair;
}
