import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { AppError } from '@ecomm-sync/runtime';
import type { Principal } from './authenticate';

export interface RateLimitOptions {
  /** Requests one credential may make per window; 0 turns limiting off. */
  limit: number;
  windowMs: number;
}

/**
 * A fixed-window limit per credential (not per IP: integrators run behind shared egress), kept in
 * this replica's memory (decision 0012). Over the limit: 429 with `Retry-After`.
 */
export function perCredentialRateLimit({ limit, windowMs }: RateLimitOptions): RequestHandler {
  if (limit <= 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (_req, res) => (res.locals.principal as Principal).credentialId,
    // The key is a credential id, never an IP, so the IP validations do not apply.
    validate: false,
    handler: (_req, _res, next, options) => {
      next(
        new AppError(
          429,
          `Rate limit reached: this credential may make ${options.limit as number} requests per ${Math.round(windowMs / 1000)} s; wait for Retry-After seconds and send fewer, larger batches`,
        ),
      );
    },
  });
}
