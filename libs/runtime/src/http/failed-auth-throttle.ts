import { createHash } from 'node:crypto';
import type { ErrorRequestHandler, Request } from 'express';
import { ipKeyGenerator, MemoryStore, type Options } from 'express-rate-limit';
import { AppError } from './app-error';
import { presentedApiKey } from './api-key';
import { bearerToken } from './static-bearer-auth';

export interface FailedAuthThrottleOptions {
  /** Failed authentications one client address, or one credential, may make per window; 0: no limit. */
  limit: number;
  windowMs: number;
}

/** What a throttle counts failures by: the client address, or a credential as presented. */
export interface ThrottleKey {
  /** Named in the 429 message ("this client address"). */
  what: string;
  /** The key of a request; undefined: this throttle does not count the request. */
  of: (req: Request) => string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The client address (an IPv6 client by its /56 network, so that it cannot rotate addresses around the limit). */
export const byClientAddress: ThrottleKey = { what: 'client address', of: (req) => ipKeyGenerator(req.ip ?? 'unknown') };

/** The credential a request presents (bearer token, or API key as `hapikey` or X-Api-Key), kept only as a digest. */
export const byPresentedCredential: ThrottleKey = {
  what: 'credential',
  of: (req) => {
    const presented = bearerToken(req.header('authorization')) ?? presentedApiKey(req);
    return presented ? digest(presented) : undefined;
  },
};

/**
 * What counts as a failed authentication: this service's own 401 (an AppError). A 401 a dependency
 * answered (a CRM refusing the portal's connection, thrown as a CrmRequestError) is no failed sign-in
 * of the caller's: counted, it would lock a right credential, and an ingress's shared address, out.
 */
const isUnauthorized = (error: unknown) => error instanceof AppError && error.status === 401;

/**
 * Throttles failed authentications only (issue 26, item 4): each 401 is counted per key (the client
 * address as seen through the trusted proxies, the credential tried, a client_id), and past `limit`
 * in a window a failing request is answered 429 with Retry-After instead of 401. A request whose
 * credential is right never fails, so it always goes through: behind an ingress, where every
 * client shares one address, a guesser cannot lock out the tenants or the operator. Mount it after
 * the routes (it is an error handler). Counts live in this replica's memory (express-rate-limit's
 * MemoryStore, like the per-credential request limit, decision 12).
 */
export function failedAuthThrottle({ limit, windowMs }: FailedAuthThrottleOptions, keys: readonly ThrottleKey[]): ErrorRequestHandler {
  if (limit <= 0) return (error, _req, _res, next) => next(error);
  const store = new MemoryStore();
  store.init({ windowMs } as Options);
  return (error, req, _res, next) => {
    if (!isUnauthorized(error)) return next(error);
    void (async () => {
      let over: { what: string; resetTime: Date | undefined } | null = null;
      for (const { what, of } of keys) {
        const key = of(req);
        if (key === undefined) continue;
        const { totalHits, resetTime } = await store.increment(`${what}:${key}`);
        if (totalHits > limit && !over) over = { what, resetTime };
      }
      if (!over) return next(error);
      const retryAfter = Math.max(1, Math.ceil(((over.resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
      next(
        new AppError(
          429,
          `Too many failed authentication attempts from this ${over.what}: at most ${limit} per ${Math.round(windowMs / 1000)} s; check the credential, or wait ${retryAfter} s`,
          { 'retry-after': String(retryAfter) },
        ),
      );
    })().catch(next);
  };
}
