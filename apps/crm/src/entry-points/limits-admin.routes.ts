import { Router, type Request, type RequestHandler } from 'express';
import { AppError, parseWith } from '@ecomm-sync/runtime';
import type { AccountStore } from '../data-access/account-store';
import { effectiveLimits, HOSTED_INTERVAL_MS, isValidTimeZone, type HostedLimits } from '../domain/hosted-limits';
import type { RequestLedger } from '../limits/request-ledger';
import { validateLimits, validateResetDaily } from './schemas';

/** The account's portalId from the path of an admin call; 400 unless a positive integer. */
export function portalIdOf(req: Request): number {
  const portalId = Number(req.params.portalId);
  if (!Number.isInteger(portalId) || portalId < 1) throw AppError.badRequest('portalId must be a positive integer');
  return portalId;
}

/** The limits body as stored: every field present, the hosted window unless a test asks for another. */
function limitsFromBody(body: unknown): HostedLimits | null {
  if (body === null) return null;
  if (body === undefined)
    throw AppError.badRequest(
      'body must be the limits {burstPer10s, dailyCap, timeZone, searchPerSecond, intervalMs?, invalidMarker?} or null to switch them off',
    );
  const limits = parseWith(validateLimits, body);
  if (!isValidTimeZone(limits.timeZone))
    throw AppError.badRequest(`body/timeZone must be an IANA time zone such as UTC or Europe/Berlin, got "${limits.timeZone}"`);
  const { burstPer10s, intervalMs = HOSTED_INTERVAL_MS, dailyCap, timeZone, searchPerSecond, invalidMarker } = limits;
  return { burstPer10s, intervalMs, dailyCap, timeZone, searchPerSecond, ...(invalidMarker === undefined ? {} : { invalidMarker }) };
}

/**
 * Admin: the hosted CRM's limits per account (decision 0021). Limits live on the account in
 * MongoDB; what an account used lives in this process's ledger.
 */
export function limitsAdminRoutes(accounts: AccountStore, ledger: RequestLedger, environment: HostedLimits | null, adminAuth: RequestHandler): Router {
  const router = Router();
  const path = '/crm/admin/v1/accounts/:portalId';

  const existing = async (portalId: number) => {
    const account = await accounts.account(portalId);
    if (!account) throw AppError.notFound(`No CRM account for portal ${portalId}; create it with PUT /crm/admin/v1/accounts/${portalId}`);
    return account;
  };
  const answer = (portalId: number, own: HostedLimits | null | undefined) => ({
    portalId,
    limits: effectiveLimits(own, environment),
    source: own === undefined ? 'environment' : 'account',
  });

  router.put(`${path}/limits`, adminAuth, async (req, res) => {
    const portalId = portalIdOf(req);
    const limits = limitsFromBody(req.body);
    if (!(await accounts.setLimits(portalId, limits))) await existing(portalId);
    res.json(answer(portalId, limits));
  });

  router.get(`${path}/limits`, adminAuth, async (req, res) => {
    const portalId = portalIdOf(req);
    res.json(answer(portalId, (await existing(portalId)).limits));
  });

  router.post(`${path}/limits/reset-daily`, adminAuth, async (req, res) => {
    const portalId = portalIdOf(req);
    const { nextResetAt } = parseWith(validateResetDaily, req.body ?? {});
    if (nextResetAt !== undefined && nextResetAt <= ledger.clock()) throw AppError.badRequest('body/nextResetAt must be in the future (epoch milliseconds)');
    const account = await existing(portalId);
    const timeZone = effectiveLimits(account.limits, environment)?.timeZone ?? 'UTC';
    res.json({ portalId, ...ledger.resetDaily(portalId, timeZone, nextResetAt) });
  });

  router.get(`${path}/usage`, adminAuth, async (req, res) => {
    const portalId = portalIdOf(req);
    await existing(portalId);
    res.json({ portalId, ...ledger.usage(portalId) });
  });

  return router;
}
