import type { Credential, RefreshTokenSpend } from '@ecomm-sync/data-access';
import { refreshReuse } from '@ecomm-sync/domain';
import { tidyInstall } from './oauth-tidy';
import { issuePair, namesPair, revokeQuietly, spentOrUnknown, storedWhileInstalled, type GrantContext, type TokenPair } from './oauth-tokens';

/**
 * A spent refresh token presented again (decision 12, addendum of 2026-12-05). Within the grace and
 * while neither token of the pair its use bought was used, the answer is taken to have been lost:
 * a new pair is stored, the token is moved on to it (of two retries at once, one moves it), and the
 * lost pair is revoked. Each of its tokens goes only while still unused (compare-and-set against
 * its use), so a pair that did reach its client and was used since is never replaced: the new pair
 * is then taken back and refused.
 */
export async function reissueLostPair(context: GrantContext, refreshToken: string, presented: Credential, spend: RefreshTokenSpend): Promise<TokenPair> {
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
  const install = { portalId: presented.portalId!, appId: presented.appId! };
  // Before the token is passed on: an install removed meanwhile leaves it as it was.
  const { pair, credentialIds } = await storedWhileInstalled(context, install, () => issuePair(context, install));
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
  let lostRevoked = false;
  try {
    lostRevoked =
      moved &&
      (await revokeLostPair(context, spend).catch(async (error: unknown) => {
        // Not known to be gone: the new pair is not handed out beside it. The token now names that
        // revoked pair, so the client's retry is refused (decision 12, addendum of 2026-12-05).
        await revokeQuietly(context, credentialIds);
        throw error;
      }));
  } finally {
    // At once, and also when only its access token went (the rest failed, or was used meanwhile).
    if (moved) await context.onTokensDeleted(install);
  }
  if (!lostRevoked) {
    await revokeQuietly(context, credentialIds);
    const reason = moved ? 'the lost pair was used or revoked meanwhile' : 'another retry came at once';
    logger.warn('a spent refresh token was presented again and refused', { ...where, reason });
    throw spentOrUnknown();
  }
  await tidyInstall(context, install, accessTokenId);
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
