import express, { type Express } from 'express';
import { gatewayOpenApiDocument, TOPICS, type CatchUpMessage, type RefreshObjectsMessage } from '@ecomm-sync/contracts';
import { CrmConnections, type CrmConnectionsOptions, type CrmExchangeSink, HttpCrmClient } from '@ecomm-sync/crm-client';
import { SecretBox, servicesSendingPortals, type OtherSenders, type Repositories } from '@ecomm-sync/data-access';
import {
  apiDocsRoutes,
  byClientAddress,
  byPresentedCredential,
  errorHandler,
  failedAuthThrottle,
  type FailedAuthThrottleOptions,
  healthRoutes,
  jsonBody,
  type Logger,
  notFoundHandler,
  observeRequests,
  type ReadinessCheck,
  requestContext,
} from '@ecomm-sync/runtime';
import type { LaneShare, ServiceAddress } from '@ecomm-sync/domain';
import type { Broker } from '@ecomm-sync/messaging';
import { adminRoutes, oauthRoutes } from './entry-points/admin.routes';
import { consoleRoutes, type OperationsPort } from './entry-points/console.routes';
import { consoleOperationsRoutes } from './entry-points/console-operations.routes';
import { consoleReportRoutes } from './entry-points/console-report.routes';
import { consoleStaticFiles } from './entry-points/console-static';
import { consoleObjectRoutes } from './entry-points/console-objects.routes';
import { consoleAlertRoutes } from './entry-points/console-alerts.routes';
import { consoleObjectDeps } from './console-object-deps';
import { crmExchangeRoutes } from './entry-points/crm-exchanges.routes';
import { Authorizer } from './entry-points/authenticate';
import { lookupCaches } from './lookup-caches';
import { CredentialResolver } from './entry-points/credential-resolver';
import { importRoutes } from './entry-points/import.routes';
import { installRoutes } from './entry-points/install.routes';
import { fixedWindows, perCredentialRateLimit, type RateLimitOptions } from './entry-points/rate-limit';
import { settingsRoutes } from './entry-points/settings.routes';
import { statusRoutes } from './entry-points/status.routes';
import { syncRoutes } from './entry-points/sync.routes';
import { AcceptSyncBatchUseCase } from './use-cases/accept-sync-batch.use-case';
import { IntakePace, type IntakePaceOptions } from './use-cases/intake-pace';
import { LaneShares } from './use-cases/lane-shares';
import { ManageAccountsUseCase } from './use-cases/manage-accounts.use-case';
import { grantSettings, type GrantSettings } from './use-cases/oauth-tokens';
import { ManageAlertsUseCase } from './use-cases/manage-alerts.use-case';
import { ManageImportsUseCase } from './use-cases/manage-imports.use-case';
import { ManageInstallUseCase } from './use-cases/manage-install.use-case';
import { ManageSettingsUseCase } from './use-cases/manage-settings.use-case';
import { ConsoleOperationsUseCase, type OperatorViewPort } from './use-cases/console-operations.use-case';
import { ConsoleReadUseCase } from './use-cases/console-read.use-case';
import { CrmExchangesUseCase } from './use-cases/crm-exchanges.use-case';
import { ConsoleActivityUseCase, ConsoleReportUseCase } from './use-cases/console-report.use-case';
import { ReadSyncStatusUseCase } from './use-cases/read-sync-status.use-case';
import { AdminListingsUseCase } from './use-cases/admin-listings.use-case';
import { RetryErrorsUseCase } from './use-cases/retry-errors.use-case';

export interface GatewayDeps {
  repositories: Repositories;
  broker: Broker;
  logger: Logger;
  bodyLimit: string;
  adminToken: string;
  crmBaseUrl: string;
  /** Longest wait of one CRM request (budget, 429s, a CRM away) before an install or store change answers 502. */
  crmMaxWaitMs?: number;
  /** Hosted CRM connections may use http (CRM_ALLOW_HTTP; development and tests). */
  crmAllowHttp?: boolean;
  readiness: Record<string, ReadinessCheck>;
  /** How long per-request lookups (credentials, stores) are remembered; 0 disables it. */
  lookupCacheMs?: number;
  /** Per credential; `limit: 0` (the default here) turns it off. */
  rateLimit?: RateLimitOptions;
  /** Each portal's share of the interactive lanes (default: one lane). */
  laneShare?: LaneShare;
  /** Each portal's pace of intake (default: none). */
  intakePace?: IntakePaceOptions;
  /** The clock of times shared with other replicas through the database: the database server's (default: this replica's own). */
  sharedClock?: () => number;
  /** Which portals are sending, for the intake pace's shared rate (default: read from the paces in `repositories`). */
  sendingPortals?: OtherSenders;
  /** Failed authentications per client address and per credential before 429 (default: no limit). */
  authThrottle?: FailedAuthThrottleOptions;
  /** The OAuth grants' settings (GrantOptions): by default access tokens live 30 minutes and refresh tokens last, as the vendor's. */
  oauth?: Partial<GrantSettings>;
  /** Key that seals application client secrets and CRM secrets (SECRETS_KEY). */
  secretsKey: string;
  /** Keys SECRETS_KEY replaced: what they sealed still opens (SECRETS_PREVIOUS_KEYS). */
  previousSecretsKeys?: readonly string[];
  /** Each portal's CRM port (tests point it elsewhere); the default is CrmConnections at crmBaseUrl. */
  connections?: CrmConnections;
  /** The request budgets of CRM accounts, shared with every other replica and service (decision 20). */
  crmBudgetFor?: CrmConnectionsOptions['budgetFor'];
  /** The CRM request log (decision 0051) that the gateway's own CRM requests (install, mappings) are recorded in; absent: none. */
  crmRequestLog?: CrmExchangeSink;
  /** Where integrators reach the gateway; links in answers are built from it (GATEWAY_PUBLIC_URL). */
  publicUrl?: string;
  /** Proxies whose X-Forwarded-* headers are believed (GATEWAY_TRUSTED_PROXIES). */
  trustedProxies?: string;
  /** The web console's build, served under /console; absent: /console answers 404 saying how to build it. */
  consoleDir?: string;
  /** The console's operations page: queue depths and redrive (main wires the broker's admin functions). */
  operations?: OperationsPort;
  /** The operator's dead letters, services' readiness and CRM budgets (decision 0036); the services asked are `services`. */
  operatorView?: Omit<OperatorViewPort, 'crmHealth'> & { services: ServiceAddress[] };
}

/**
 * The gateway's HTTP app. Cached look-ups are dropped in every replica when access changes
 * (a broadcast on `lookups.changed`), so a revocation holds at once everywhere.
 */
export async function createGatewayApp(deps: GatewayDeps): Promise<Express> {
  const { repositories, broker, logger } = deps;
  const secretBox = new SecretBox(deps.secretsKey, deps.previousSecretsKeys ?? []);
  const connections =
    deps.connections ??
    new CrmConnections({
      portals: repositories.portals,
      secretBox,
      builtinBaseUrl: deps.crmBaseUrl,
      maxWaitMs: deps.crmMaxWaitMs ?? 3000,
      budgetFor: deps.crmBudgetFor,
      allowHttpHosted: deps.crmAllowHttp ?? false,
      createClient: (spec) => new HttpCrmClient({ ...spec, requestLog: deps.crmRequestLog }),
      logger,
    });
  const sealed = await connections.sealPlaintextTokens();
  if (sealed > 0) logger.info('sealed built-in CRM tokens stored in clear', { portals: sealed });
  // Every replica must refresh alike (docs/configuration.md): the log says how this one does.
  const oauth = grantSettings(deps.oauth ?? {});
  logger.info(oauth.rotateRefreshTokens ? 'OAuth refresh tokens rotate' : "OAuth refresh tokens last, as the vendor's", oauth);

  const lookups = await lookupCaches({ broker, connections, cacheMs: deps.lookupCacheMs ?? 0, logger });
  const imports = new ManageImportsUseCase(repositories, broker, logger, Date.now, deps.sharedClock);
  const alerts = new ManageAlertsUseCase(repositories, secretBox);
  const installs = new ManageInstallUseCase(repositories, broker, logger, {
    crmFor: (portal) => connections.clientFor(portal),
    onLookupsChanged: lookups.changed,
    // The default alert rules exist from install on (issue 29).
    onInstalled: async (tenant) => {
      await alerts.ensureDefaults(tenant);
      if (tenant.appId) await imports.startOnInstall({ portalId: tenant.portalId, appId: tenant.appId });
    },
    onRemovedMeanwhile: (tenant) => alerts.removeAllOf(tenant),
  });
  const accounts = new ManageAccountsUseCase(
    repositories,
    {
      ...oauth,
      crm: { baseUrl: deps.crmBaseUrl, adminToken: deps.adminToken },
      secretBox,
      connections,
      onAccessChanged: () => lookups.changed(),
      onUninstalling: async (tenant) => {
        await installs.uninstall(tenant);
        await alerts.removeAllOf(tenant);
      },
      onTokensDeleted: (install) => lookups.changed({ tokensOf: install }),
      refreshes: fixedWindows(oauth.refreshWindowSeconds * 1000),
      onPortalEnabled: (portalId) => broker.publish(TOPICS.catchUp, { kind: 'catch-up', portalId, errorType: 'INACTIVE_PORTAL' } satisfies CatchUpMessage),
    },
    logger,
  );
  // Bodies are read once the credential is known to be good (each route's authorization ends with it).
  const readBody = jsonBody(deps.bodyLimit);
  const auth = new Authorizer(
    new CredentialResolver(repositories.credentials, lookups.credentials, Date.now, logger),
    repositories.accounts,
    perCredentialRateLimit(deps.rateLimit ?? { limit: 0, windowMs: 1000 }),
    readBody,
  );
  const readSyncStatus = new ReadSyncStatusUseCase(repositories);

  const app = express();
  app.disable('x-powered-by');
  // Forwarded headers are believed only from proxies the operator named: by default from none.
  app.set('trust proxy', deps.trustedProxies ?? false);
  app.use(healthRoutes(deps.readiness, { metrics: false })); // metrics: GATEWAY_METRICS_PORT only
  app.use(observeRequests());
  app.use(apiDocsRoutes(gatewayOpenApiDocument(), 'ecomm-sync gateway API'));
  app.use(requestContext());
  const authThrottle = deps.authThrottle ?? { limit: 0, windowMs: 60_000 };
  app.use(consoleStaticFiles(deps.consoleDir));
  app.use(oauthRoutes(accounts, authThrottle));
  app.use(adminRoutes(accounts, new AdminListingsUseCase(repositories), deps.adminToken, readBody));
  app.use(settingsRoutes(new ManageSettingsUseCase(repositories, broker, logger), auth));
  app.use(installRoutes(installs, auth));
  app.use(importRoutes(imports, auth));
  const acceptSyncBatch = new AcceptSyncBatchUseCase({
    broker,
    stores: { find: (tenant, storeId) => installs.findStore(tenant, storeId) },
    logger,
    knownStores: lookups.stores,
    // Without settings: one lane and no pace (the use case's defaults).
    lanes: deps.laneShare && new LaneShares(deps.laneShare),
    intake: deps.intakePace && intakePace(deps, deps.intakePace),
  });
  app.use(syncRoutes(acceptSyncBatch, auth));
  app.use(statusRoutes(readSyncStatus, auth, { publicUrl: deps.publicUrl }));
  const refresher = { refresh: (message: RefreshObjectsMessage) => broker.publish(TOPICS.refreshObjects, message) };
  app.use(
    consoleRoutes(
      {
        read: new ConsoleReadUseCase(repositories),
        retry: new RetryErrorsUseCase(repositories, refresher),
        imports,
        operations: deps.operations,
        accounts: repositories.accounts,
        adminToken: deps.adminToken,
      },
      auth,
    ),
  );
  app.use(consoleObjectRoutes(consoleObjectDeps(repositories, connections, deps.crmBaseUrl), auth));
  app.use(consoleAlertRoutes(alerts, repositories.accounts, auth));
  app.use(crmExchangeRoutes(new CrmExchangesUseCase(repositories), repositories.accounts, auth, deps.adminToken));
  const operatorView =
    deps.operatorView &&
    new ConsoleOperationsUseCase({ ...deps.operatorView, crmHealth: (portalId) => readSyncStatus.crmHealth(portalId) }, deps.operatorView.services);
  app.use(consoleOperationsRoutes(operatorView, deps.adminToken));
  const crmFor = async (portalId: number) => {
    const portal = await repositories.portals.findById(portalId);
    return portal ? connections.clientFor(portal) : null;
  };
  app.use(consoleReportRoutes(new ConsoleReportUseCase(repositories, crmFor), new ConsoleActivityUseCase(repositories), repositories.accounts, auth));
  app.use(notFoundHandler());
  // Failed authentications only: a right credential always goes through (an error handler).
  app.use(failedAuthThrottle(authThrottle, [byClientAddress, byPresentedCredential]));
  app.use(errorHandler(logger));
  return app;
}

/** Each portal's intake pace, at the shared rate while other portals send too, as every replica sees them in the database. */
function intakePace({ repositories, logger, sharedClock = Date.now, sendingPortals }: GatewayDeps, options: IntakePaceOptions): IntakePace {
  const sending = sendingPortals ?? servicesSendingPortals(repositories.intakePaces, sharedClock, logger);
  return new IntakePace(options, repositories.intakePaces, { logger, clock: sharedClock, sending });
}
