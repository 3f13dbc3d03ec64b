import express, { type Express } from 'express';
import { errorHandler, healthRoutes, jsonBody, notFoundHandler, requestContext, type ReadinessCheck } from '@ecomm-sync/http';
import type { Logger } from '@ecomm-sync/logger';
import type { CrmStore } from './data-access/crm-store';
import { crmErrorAsHttp } from './entry-points/crm-error-as-http';
import { crmRoutes } from './entry-points/crm.routes';

export interface CrmAppDeps {
  store: CrmStore;
  logger: Logger;
  adminToken: string;
  defaultPipelineLimit: number;
  bodyLimit: string;
  ready: ReadinessCheck;
}

export function createCrmApp(deps: CrmAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(healthRoutes({ mongo: deps.ready }));
  app.use(requestContext());
  app.use(jsonBody(deps.bodyLimit));
  app.use(crmRoutes(deps.store, deps.adminToken, deps.defaultPipelineLimit));
  app.use(notFoundHandler());
  app.use(crmErrorAsHttp());
  app.use(errorHandler(deps.logger));
  return app;
}
