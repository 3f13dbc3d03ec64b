import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger';
import { AppError } from './app-error';
import { frameworkError } from './framework-errors';
import { unavailableDependency } from './unavailable-dependency';

/** The last handler of every app: `{"status":"error","message":...,"requestId":...}` for every failure. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (thrown, req, res, _next) => {
    const away = unavailableDependency(thrown);
    if (away) logger.warn('a dependency is away; answering 503', { error: String(thrown), method: req.method, path: req.path });
    const error = away ?? frameworkError(thrown) ?? thrown;
    const known = error instanceof AppError;
    const status = known ? error.status : 500;
    const message = known ? error.message : 'Internal error; the request id identifies it in the service logs';
    if (!known) logger.error('unhandled error', { error: error instanceof Error ? error.stack : String(error), method: req.method, path: req.path });
    else if (status >= 500 && !away) logger.warn('request failed', { status, message });
    if (res.headersSent) return;
    if (known) for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.status(status).json({ ...(known ? error.fields : {}), status: 'error', message, requestId: res.locals.requestId });
  };
}

export const notFoundHandler = (): RequestHandler => (req, _res, next) =>
  next(AppError.notFound(`No endpoint ${req.method} ${req.path}; see the API reference in docs/api.md`));
