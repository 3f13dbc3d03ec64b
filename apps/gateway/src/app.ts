import express, { type Express } from 'express';
import type { Repositories } from '@ecomm-sync/data-access';
import { errorHandler, healthRoutes, jsonBody, notFoundHandler, requestContext, type ReadinessCheck } from '@ecomm-sync/http';
import type { Logger } from '@ecomm-sync/logger';
import type { Broker } from '@ecomm-sync/messaging';
import { adminRoutes } from './entry-points/admin.routes';
import { developerAppAuth, portalKeyAuth } from './entry-points/authenticate';
import { settingsRoutes } from './entry-points/settings.routes';
import { ManageSettingsUseCase } from './use-cases/manage-settings.use-case';
import { applicationErrorRoutes, statusRoutes } from './entry-points/status.routes';
import { syncRoutes } from './entry-points/sync.routes';
import { AcceptSyncBatchUseCase } from './use-cases/accept-sync-batch.use-case';
import { ReadSyncStatusUseCase } from './use-cases/read-sync-status.use-case';
import { TtlCache } from './use-cases/ttl-cache';

export interface GatewayDeps {
  repositories: Repositories;
  broker: Broker;
  logger: Logger;
  bodyLimit: string;
  adminToken: string;
  crmBaseUrl: string;
  readiness: Record<string, ReadinessCheck>;
  /** How long per-request lookups (portal by key, store) are remembered; 0 disables it. */
  lookupCacheMs?: number;
}

export function createGatewayApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true);
  app.use(healthRoutes(deps.readiness));
  app.use(requestContext());
  app.use(jsonBody(deps.bodyLimit));
  app.use(adminRoutes(deps.repositories, { baseUrl: deps.crmBaseUrl, adminToken: deps.adminToken }));
  app.use(settingsRoutes(new ManageSettingsUseCase(deps.repositories, deps.broker, deps.logger), deps.repositories.portals, deps.repositories.accounts));
  const readSyncStatus = new ReadSyncStatusUseCase(deps.repositories);
  app.use(applicationErrorRoutes(readSyncStatus, developerAppAuth(deps.repositories.accounts, deps.repositories.portals)));
  const cacheMs = deps.lookupCacheMs ?? 0;
  app.use('/extensions/ecomm', portalKeyAuth(deps.repositories.portals, new TtlCache(cacheMs)));
  app.use(syncRoutes(new AcceptSyncBatchUseCase(deps.broker, deps.repositories.stores, deps.logger, new TtlCache(cacheMs))));
  app.use(statusRoutes(readSyncStatus));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
