import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { AppError } from '@ecomm-sync/runtime';
import type { Account } from '../data-access/crm-store';
import { edgeArrival } from '../edge/crm-edge';
import { effectiveLimits, isSearchRequest, LIMIT_MESSAGES, type HostedLimits } from '../domain/hosted-limits';
import type { RequestLedger } from '../limits/request-ledger';

/** The limits in force for this request's account (set by hostedLimits), or null. */
export const limitsOf = (res: Response): HostedLimits | null => (res.locals.limits as HostedLimits | undefined) ?? null;

/**
 * The first middleware: when the request reached the CRM, before its body and account are read. The
 * edge thread's stamp when the request came through it (`edgeSecret`: the edge of this process),
 * else the time this thread read it.
 */
export const stampArrival =
  (clock: () => number, edgeSecret?: string): RequestHandler =>
  (req, res, next) => {
    res.locals.arrivedAt = edgeArrival(req.headers, edgeSecret) ?? clock();
    next();
  };

/**
 * After portal authentication: counts the request of a limited account, answers the hosted CRM's
 * rate-limit headers on every answer, and refuses with its 429 body when a limit is reached. An
 * OAuth call counts in the account's rolling window (the hosted CRM's is per app and account:
 * not modelled) but not against its daily cap, and is answered without the daily headers.
 */
export const hostedLimits =
  (ledger: RequestLedger, environment: HostedLimits | null): RequestHandler =>
  (req, res, next) => {
    const account = res.locals.account as Account;
    const limits = effectiveLimits(account.limits, environment);
    if (!limits) return next();
    res.locals.limits = limits;
    const arrivedAt = res.locals.arrivedAt as number | undefined;
    const daily = res.locals.viaOAuth !== true; // OAuth calls have no daily limit on the hosted CRM
    const { verdict, headers } = ledger.admit(account.portalId, limits, isSearchRequest(req.method, req.path), arrivedAt, { daily });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (verdict.admitted) return next();
    next(
      new AppError(
        429,
        LIMIT_MESSAGES[verdict.policy],
        { 'Retry-After': String(verdict.retryAfterSeconds) },
        { errorType: 'RATE_LIMIT', correlationId: randomUUID(), policyName: verdict.policy },
      ),
    );
  };
