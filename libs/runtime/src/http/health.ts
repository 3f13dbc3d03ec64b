import type { Server } from 'node:http';
import express, { Router, type Express } from 'express';
import type { Logger } from '../logger';
import { errorHandler, notFoundHandler } from './error-handler';
import { listen } from './listen';
import { requestContext } from './request-context';
import { metricsRoutes } from './observe-requests';

export type ReadinessCheck = () => Promise<boolean> | boolean;

/**
 * GET /healthz: the process is up. GET /readyz: every dependency answers (503 naming those that do
 * not). GET /metrics: the process's metrics for Prometheus, unless `metrics` is false: an app's
 * public API port never serves them (they name portals); its internal health port does.
 */
export function healthRoutes(checks: Record<string, ReadinessCheck>, { metrics = true }: { metrics?: boolean } = {}): Router {
  const router = Router();
  if (metrics) router.use(metricsRoutes());
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await Promise.resolve(check()).catch(() => false)] as const));
    const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
    res.status(failing.length === 0 ? 200 : 503).json({ status: failing.length === 0 ? 'ready' : 'not ready', failing });
  });
  return router;
}

/** The health endpoints alone, with the error model of every other app for anything else. */
export function healthApp(checks: Record<string, ReadinessCheck>, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRoutes(checks));
  app.use(requestContext());
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}

/** An app's internal port: health and metrics (the workers' only port; the gateway's and CRM's second one). */
export async function startHealthServer(port: number, checks: Record<string, ReadinessCheck>, logger: Logger): Promise<Server> {
  return listen(healthApp(checks, logger), port);
}
