import type { RequestHandler } from 'express';
import { AppError, bearerToken } from '@ecomm-sync/http';
import type { AccountStore } from '../data-access/account-store';

/** Objects API: the portal's bearer token. Sets res.locals.account. */
export const portalTokenAuth =
  (accounts: AccountStore): RequestHandler =>
  async (req, res, next) => {
    const token = bearerToken(req.header('authorization'));
    if (!token) return next(AppError.unauthorized('Missing credential: send the portal token as Authorization: Bearer <token>'));
    const account = await accounts.accountByToken(token);
    if (!account) return next(AppError.unauthorized('Invalid token: no CRM account has this token'));
    res.locals.account = account;
    next();
  };
