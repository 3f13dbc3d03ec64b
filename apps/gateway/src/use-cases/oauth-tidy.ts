import type { InstallKey } from '@ecomm-sync/data-access';
import type { GrantContext } from './oauth-tokens';

/**
 * What an install's tokens leave behind goes whenever it is given a new token (a refresh, a lost
 * answer's retry, an install): refresh tokens spent before the reuse grace, and access tokens expired
 * for longer than the grace and than their own life (within the grace a lost pair's verdict still
 * reads its use; for one life more a caller still hears that its token expired, not that it is
 * unknown). One delete takes both. Then the install's access tokens beyond the newest
 * `accessTokensPerInstall` (0: no limit) go, `issued` (the one just answered) kept among them. A
 * failure leaves them for the next time. When tokens that may be in use went (those beyond the limit;
 * a delete that failed may have taken some), every replica is told to drop the install's cached tokens.
 */
export async function tidyInstall(context: GrantContext, install: InstallKey, issued: string): Promise<void> {
  const { repositories, clock, logger, refreshReuseSeconds, accessTokenTtlSeconds, accessTokensPerInstall } = context;
  const now = clock();
  const before = {
    accessTokensExpiredBefore: now - Math.max(refreshReuseSeconds, accessTokenTtlSeconds) * 1000,
    refreshTokensSpentBefore: now - refreshReuseSeconds * 1000,
  };
  const warn = (what: string) => (error: unknown) => logger.warn(what, { error: String(error) });
  // Expired tokens and spent refresh tokens are refused by what they say: no replica needs telling.
  await repositories.credentials.deleteOutlivedTokens(install, before).catch(warn('expired or spent tokens could not be deleted'));
  if (accessTokensPerInstall <= 0) return;
  const beyond = await repositories.credentials.deleteAccessTokensBeyond(install, accessTokensPerInstall, issued).catch((error: unknown) => {
    warn("the install's oldest access tokens could not be deleted")(error);
    return 'unknown' as const;
  });
  if (beyond === 0) return;
  if (beyond !== 'unknown')
    logger.info("an install's oldest access tokens were deleted: it holds as many as it may", { ...install, deleted: beyond, accessTokensPerInstall });
  await context.onTokensDeleted(install);
}
