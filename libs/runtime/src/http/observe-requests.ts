import type { Request, RequestHandler } from 'express';
import { Router } from 'express';
import { metricsText, observeHttpRequest, parseTraceparent, runInSpan, startSpan } from '../observability';

/** The route template that answered ("/crm/v3/objects/:type/batch/create"), or "unmatched" when none did (404s, refusals before routing). */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
}

/**
 * Each request in a server span that continues the caller's `traceparent` (or starts a trace), so
 * that every log line of the request and every message it publishes carry the trace; and its
 * duration in http_request_duration_seconds by route template and status. Mount it first.
 */
export const observeRequests = (): RequestHandler => (req, res, next) => {
  const started = performance.now();
  const span = startSpan(`${req.method} request`, {
    kind: 'server',
    parent: parseTraceparent(req.header('traceparent')) ?? null,
    attributes: { 'http.request.method': req.method },
  });
  res.once('finish', () => {
    const route = routeTemplate(req);
    observeHttpRequest(req.method, route, res.statusCode, (performance.now() - started) / 1000);
    if (span) {
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      span.end(res.statusCode >= 500 ? `status ${res.statusCode}` : undefined);
    }
  });
  runInSpan(span, next);
};

/** GET /metrics in the Prometheus text format. */
export function metricsRoutes(): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    const { contentType, body } = await metricsText();
    res.type(contentType).send(body);
  });
  return router;
}
