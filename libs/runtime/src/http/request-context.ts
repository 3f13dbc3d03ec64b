import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import { logContext } from '../logger';

/** 32 alphanumerics, as the original service's error bodies carry. */
export const newRequestId = (): string => randomBytes(16).toString('hex');

/** Gives each request an id (answered in X-Request-Id) that every log line of the request carries. */
export const requestContext = (): RequestHandler => (req, res, next) => {
  const requestId = newRequestId();
  const incoming = req.header('x-correlation-id');
  const correlationId = incoming && /^[\w.-]{1,100}$/.test(incoming) ? incoming : requestId;
  res.locals.requestId = requestId;
  res.setHeader('x-request-id', requestId);
  logContext.run({ requestId, correlationId }, next);
};
