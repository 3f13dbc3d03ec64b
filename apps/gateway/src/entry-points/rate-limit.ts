import type { RequestHandler } from 'express';
import { MemoryStore, rateLimit, type Options } from 'express-rate-limit';
import { AppError } from '@ecomm-sync/runtime';
import type { WindowCounter } from '../use-cases/oauth-refresh-limit';
import type { Principal } from './credential-resolver';

export interface RateLimitOptions {
  /** Requests one credential (an install's access tokens together) may make per window; 0 turns limiting off. */
  limit: number;
  windowMs: number;
}

/**
 * What one limit counts, and how its 429 names it: a credential, except an install's OAuth access tokens, which share one (a
 * refresh gives a new access token while the ones before still work: as many refreshes as there
 * are tokens would otherwise multiply the limit).
 */
export const rateLimitOf = (principal: Principal): { key: string; who: string } =>
  principal.kind === 'access-token'
    ? { key: `install:${principal.portalId}:${principal.appId}`, who: "this install's access tokens together" }
    : { key: principal.credentialId, who: 'this credential' };

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
    keyGenerator: (_req, res) => rateLimitOf(res.locals.principal as Principal).key,
    // The key is a credential or an install, never an IP, so the IP validations do not apply.
    validate: false,
    handler: (_req, res, next, options) => {
      const { who } = rateLimitOf(res.locals.principal as Principal);
      next(
        new AppError(
          429,
          `Rate limit reached: ${who} may make ${options.limit as number} requests per ${Math.round(windowMs / 1000)} s; wait for Retry-After seconds and send fewer, larger batches`,
        ),
      );
    },
  });
}

/**
 * Counts per key in fixed windows of `windowMs`, in this replica's memory: express-rate-limit's
 * store, as the credential limit keeps its counts, for a limit counted inside a use case (an
 * install's token refreshes) rather than around a route.
 */
export function fixedWindows(windowMs: number): WindowCounter {
  const store = new MemoryStore();
  store.init({ windowMs } as Options);
  return {
    async count(key) {
      const { totalHits, resetTime } = await store.increment(key);
      const resetsAt = resetTime?.getTime() ?? Date.now() + windowMs;
      return { hits: totalHits, retryAfterSeconds: Math.max(1, Math.ceil((resetsAt - Date.now()) / 1000)) };
    },
  };
}
