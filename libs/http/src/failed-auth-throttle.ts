import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { AppError } from './app-error';
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

/** The credential a request presents (bearer token or `hapikey`), kept only as a digest. */
export const byPresentedCredential: ThrottleKey = {
  what: 'credential',
  of: (req) => {
    const presented = bearerToken(req.header('authorization')) ?? (typeof req.query.hapikey === 'string' ? req.query.hapikey : undefined);
    return presented ? digest(presented) : undefined;
  },
};

const answeredUnauthorized = (_req: Request, res: Response) => res.statusCode === 401;

/**
 * Counts failed authentications (by default: answers 401) per key and, past `limit` in a window,
 * answers 429 with Retry-After before the request is looked at, whether its credential is right or
 * not: a guesser learns nothing more until the window ends. Successful requests are not counted.
 * Counts live in this replica's memory (like the per-credential request limit, decision 12).
 */
export function failedAuthThrottle(
  { limit, windowMs }: FailedAuthThrottleOptions,
  keys: readonly ThrottleKey[],
  failed: (req: Request, res: Response) => boolean = answeredUnauthorized,
): RequestHandler[] {
  if (limit <= 0) return [(_req, _res, next) => next()];
  return keys.map(({ what, of }) =>
    rateLimit({
      windowMs,
      limit,
      standardHeaders: 'draft-7',
      legacyHeaders: false,
      skip: (req) => of(req) === undefined,
      keyGenerator: (req) => `${what}:${of(req)}`,
      skipSuccessfulRequests: true,
      requestWasSuccessful: (req, res) => !failed(req, res),
      // Keys are computed above (addresses through ipKeyGenerator); the library's guesses about them do not apply.
      validate: false,
      handler: (_req, _res, next) => {
        next(
          new AppError(
            429,
            `Too many failed authentication attempts from this ${what}: at most ${limit} per ${Math.round(windowMs / 1000)} s; wait for Retry-After seconds and check the credential`,
          ),
        );
      },
    }),
  );
}
