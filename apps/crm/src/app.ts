import express, { type Express } from 'express';
import {
  apiDocsRoutes,
  errorHandler,
  healthRoutes,
  jsonBody,
  type Logger,
  notFoundHandler,
  observeRequests,
  type ReadinessCheck,
  requestContext,
} from '@ecomm-sync/runtime';
import type { CrmStore } from './data-access/crm-store';
import type { HostedLimits } from './domain/hosted-limits';
import { crmErrorAsHttp } from './entry-points/crm-error-as-http';
import { accessLog } from './entry-points/access-log';
import { crmOpenApiDocument } from './entry-points/crm-openapi';
import { crmRoutes } from './entry-points/crm.routes';
import { oauthTokenRoutes } from './entry-points/oauth-token.routes';
import { stampArrival } from './entry-points/hosted-limits.middleware';
import { RequestLedger } from './limits/request-ledger';

export interface CrmAppDeps {
  store: CrmStore;
  logger: Logger;
  adminToken: string;
  defaultPipelineLimit: number;
  bodyLimit: string;
  ready: ReadinessCheck;
  /** Emulation of the hosted CRM's limits (decision 0021); absent: off for accounts without their own. */
  hostedLimits?: {
    /** Limits of accounts without their own (CRM_EMULATE_HOSTED_LIMITS); null: none. */
    defaults: HostedLimits | null;
    /** The time the limits are counted by: tests set it instead of waiting. */
    clock?: () => number;
    usageRetentionSeconds?: number;
  };
  /** The time OAuth access tokens are issued and expire by: tests set it instead of waiting. */
  clock?: () => number;
  /** The secret of this process's edge thread, whose arrival stamps the limits count by (main.ts); none: stamped here. */
  edgeSecret?: string;
}

export function createCrmApp(deps: CrmAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  const ledger = new RequestLedger(deps.hostedLimits?.clock, deps.hostedLimits?.usageRetentionSeconds);
  app.use(stampArrival(ledger.clock, deps.edgeSecret));
  app.use(healthRoutes({ mongo: deps.ready }, { metrics: false })); // metrics: CRM_METRICS_PORT only
  app.use(observeRequests());
  app.use(apiDocsRoutes(crmOpenApiDocument(), 'ecomm-sync built-in CRM API'));
  app.use(requestContext());
  app.use(accessLog(deps.logger));
  const clock = deps.clock ?? Date.now;
  app.use(oauthTokenRoutes(deps.store.oauth, clock)); // a form, before the JSON body parser
  app.use(jsonBody(deps.bodyLimit));
  app.use(
    crmRoutes(deps.store, {
      adminToken: deps.adminToken,
      defaultPipelineLimit: deps.defaultPipelineLimit,
      ledger,
      environmentLimits: deps.hostedLimits?.defaults ?? null,
      clock,
    }),
  );
  app.use(notFoundHandler());
  app.use(crmErrorAsHttp());
  app.use(errorHandler(deps.logger));
  return app;
}
