import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from './app-error';

export const bearerToken = (header: string | undefined): string | undefined => /^Bearer (\S+)$/i.exec(header ?? '')?.[1];

/** One fixed bearer token (admin APIs), compared in constant time. */
export const staticBearerAuth =
  (expectedToken: string, what: string): RequestHandler =>
  (req, _res, next) => {
    const given = Buffer.from(bearerToken(req.header('authorization')) ?? '');
    const expected = Buffer.from(expectedToken);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return next(AppError.unauthorized(`${what} needs Authorization: Bearer <ADMIN_TOKEN>`));
    }
    next();
  };
