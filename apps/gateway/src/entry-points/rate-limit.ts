import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { AppError } from '@ecomm-sync/runtime';
import type { Principal } from './authenticate';

export interface RateLimitOptions {
  /** Requests one credential (an install's access tokens together) may make per window; 0 turns limiting off. */
  limit: number;
  windowMs: number;
}

/**
 * What one limit counts: a credential, except an install's OAuth access tokens, which share one (a
 * refresh gives a new access token while the ones before still work: as many refreshes as there
 * are tokens would otherwise multiply the limit).
 */
export const limitKey = (principal: Principal): string =>
  principal.kind === 'access-token' ? `install:${principal.portalId}:${principal.appId}` : principal.credentialId;

/**
 * A fixed-window limit per credential, an install's access tokens together (not per IP: integrators
 * run behind shared egress), kept in this replica's memory (decision 0012). Over the limit: 429
 * with `Retry-After`.
 */
export function perCredentialRateLimit({ limit, windowMs }: RateLimitOptions): RequestHandler {
  if (limit <= 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (_req, res) => limitKey(res.locals.principal as Principal),
    // The key is a credential or an install, never an IP, so the IP validations do not apply.
    validate: false,
    handler: (_req, res, next, options) => {
      const who = (res.locals.principal as Principal).kind === 'access-token' ? "this install's access tokens together" : 'this credential';
      next(
        new AppError(
          429,
          `Rate limit reached: ${who} may make ${options.limit as number} requests per ${Math.round(windowMs / 1000)} s; wait for Retry-After seconds and send fewer, larger batches`,
        ),
      );
    },
  });
}
