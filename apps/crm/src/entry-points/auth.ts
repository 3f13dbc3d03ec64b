import type { RequestHandler } from 'express';
import { AppError, bearerToken } from '@ecomm-sync/runtime';
import type { Account, AccountStore } from '../data-access/account-store';
import { looksIssuedAccessToken, type OAuthStore } from '../data-access/oauth-store';

/** The hosted CRM's answer to an expired OAuth token: 401, category EXPIRED_AUTHENTICATION. */
function expired(expiredAt: number, now: number): AppError {
  const minutes = Math.max(1, Math.round((now - expiredAt) / 60_000));
  return new AppError(
    401,
    `The OAuth token used to make this call expired ${minutes} minute(s) ago; get a new one with POST /oauth/v1/token`,
    {},
    { category: 'EXPIRED_AUTHENTICATION' },
  );
}

/**
 * Objects API: the portal's bearer token, or an access token of the OAuth token endpoint until it
 * expires. Sets res.locals.account, and res.locals.viaOAuth for an access token.
 */
export const portalTokenAuth =
  (accounts: AccountStore, oauth: OAuthStore, clock: () => number): RequestHandler =>
  async (req, res, next) => {
    const token = bearerToken(req.header('authorization'));
    if (!token) return next(AppError.unauthorized('Missing credential: send the portal token as Authorization: Bearer <token>'));
    let account: Account | null = null;
    if (looksIssuedAccessToken(token)) {
      const now = clock();
      const issued = await oauth.accountByAccessToken(token, now);
      if (issued && 'expiredAt' in issued) return next(expired(issued.expiredAt, now));
      account = issued?.account ?? null;
      // An OAuth call: the hosted CRM gives it no daily limit (hostedLimits).
      res.locals.viaOAuth = account !== null;
    }
    // A static token may look like an issued one (an operator chose it): it is still looked up.
    account ??= await accounts.accountByToken(token);
    if (!account) return next(AppError.unauthorized('Invalid token: no CRM account has this token'));
    res.locals.account = account;
    next();
  };
