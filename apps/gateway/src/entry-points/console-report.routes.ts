import { Router } from 'express';
import type { AccountRepository, ConsoleScope } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/runtime';
import type { ConsoleActivityUseCase, ConsoleReportUseCase } from '../use-cases/console-report.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { consoleScope } from './console.routes';
import { objectIdParam } from './query-params';

/** The console's reporting page (issue 14, page 6), with the console's credential rules (decision 0033). */
export function consoleReportRoutes(report: ConsoleReportUseCase, activity: ConsoleActivityUseCase, accounts: AccountRepository, auth: Authorizer): Router {
  const router = Router();
  router.get('/console/api/v1/report', ...auth.require(consoleScope(accounts)), async (req, res) => {
    const storeId = req.query.storeId === undefined ? undefined : objectIdParam(req.query.storeId, 'Query parameter storeId');
    res.json(await report.report(grantOf<{ scope: ConsoleScope }>(res).scope, storeId));
  });
  router.get('/console/api/v1/activity', ...auth.require(consoleScope(accounts)), async (req, res) => {
    const window = req.query.window ?? 'hour';
    if (window !== 'hour' && window !== 'day') throw AppError.badRequest(`Query parameter window must be hour or day, got "${String(window)}"`);
    res.json(await activity.activity(grantOf<{ scope: ConsoleScope }>(res).scope, window));
  });
  return router;
}
