import type { RequestHandler } from 'express';
import { logContext } from '../logger';
import { randomHex } from '../observability/random-hex';

/** 32 alphanumerics, as the original service's error bodies carry. */
export const newRequestId = (): string => randomHex(16);

/** Gives each request an id (answered in X-Request-Id) that every log line of the request carries. */
export const requestContext = (): RequestHandler => (req, res, next) => {
  const requestId = newRequestId();
  const incoming = req.header('x-correlation-id');
  const correlationId = incoming && /^[\w.-]{1,100}$/.test(incoming) ? incoming : requestId;
  res.locals.requestId = requestId;
  res.setHeader('x-request-id', requestId);
  logContext.run({ requestId, correlationId }, next);
};
