import { AsyncResource } from 'node:async_hooks';
import type { RequestHandler } from 'express';
import { type Logger, routeTemplate } from '@ecomm-sync/runtime';

/**
 * One line per request at level "http" (shown with LOG_LEVEL=http or lower): what was asked, the
 * answer, and the `traceparent` the caller sent as received, so that a trace can be followed into
 * the CRM and a caller that sent none is seen.
 */
export const accessLog =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    if (!logger.isLevelEnabled('http')) return next();
    const started = performance.now();
    const traceparent = req.header('traceparent') ?? null;
    // Bound: the line carries the request's ids and trace, whatever context emits 'finish'.
    const logRequest = () =>
      logger.http('request', {
        method: req.method,
        path: req.path,
        route: routeTemplate(req),
        status: res.statusCode,
        durationMs: Math.round(performance.now() - started),
        traceparent,
      });
    res.once('finish', AsyncResource.bind(logRequest));
    next();
  };
