import path from 'node:path';
import { keyList } from '@ecomm-sync/data-access';
import { MongoCrmBudgets, startCrmRequestLog } from '@ecomm-sync/crm-client';
import { listen } from '@ecomm-sync/runtime';
import { parseServiceAddresses } from '@ecomm-sync/domain';
import { peekDeadLetters, queueStats, redriveDeadLetters } from '@ecomm-sync/messaging';
import { runService } from '@ecomm-sync/service-runtime';
import { createGatewayApp } from './app';
import { askReadiness } from './entry-points/ask-readiness';
import { replicaResolver } from './entry-points/resolve-replicas';
import { loadGatewayConfig } from './config';

runService({
  name: 'gateway',
  loadConfig: loadGatewayConfig,
  healthPort: (config) => config.GATEWAY_METRICS_PORT,
  start: async ({ config, logger, database, broker, onDrained }) => {
    const budgets = new MongoCrmBudgets(database.connection);
    const named = parseServiceAddresses(config.SERVICE_READINESS_URLS);
    // The gateway itself first: its replicas when the list names them (Kubernetes), else this process.
    const services = [
      named.find((s) => s.service === 'gateway') ?? { service: 'gateway', url: `http://127.0.0.1:${config.GATEWAY_PORT}` },
      ...named.filter((s) => s.service !== 'gateway'),
    ];
    const app = await createGatewayApp({
      repositories: database.repositories,
      broker,
      logger,
      bodyLimit: config.GATEWAY_BODY_LIMIT,
      adminToken: config.ADMIN_TOKEN,
      secretsKey: config.SECRETS_KEY,
      previousSecretsKeys: keyList(config.SECRETS_PREVIOUS_KEYS),
      crmBaseUrl: config.CRM_BASE_URL,
      crmMaxWaitMs: config.CRM_MAX_WAIT_MS,
      crmAllowHttp: config.CRM_ALLOW_HTTP,
      crmBudgetFor: (accountKey, limits, kind) => budgets.for(accountKey, limits, kind),
      crmRequestLog: startCrmRequestLog(config, { database, logger, onDrained }),
      lookupCacheMs: config.GATEWAY_LOOKUP_CACHE_MS,
      rateLimit: { limit: config.RATE_LIMIT_REQUESTS, windowMs: config.RATE_LIMIT_WINDOW_MS },
      laneShare: { objectsPerSecond: config.LANE_SHARE_OBJECTS_PER_SECOND, burstObjects: config.LANE_SHARE_BURST_OBJECTS },
      sharedClock: database.clock.now,
      intakePace: {
        objectsPerSecond: config.INTAKE_OBJECTS_PER_SECOND,
        burstObjects: config.INTAKE_BURST_OBJECTS,
        maxWaitMs: config.INTAKE_MAX_WAIT_MS,
        maxHeldBytes: config.INTAKE_MAX_HELD_BYTES,
        sharedObjectsPerSecond: config.INTAKE_SHARED_OBJECTS_PER_SECOND,
      },
      authThrottle: { limit: config.AUTH_FAILURE_LIMIT, windowMs: config.AUTH_FAILURE_WINDOW_MS },
      oauth: {
        accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_S,
        rotateRefreshTokens: config.OAUTH_ROTATE_REFRESH_TOKENS,
        refreshReuseSeconds: config.OAUTH_REFRESH_REUSE_S,
        accessTokensPerInstall: config.OAUTH_ACCESS_TOKENS_PER_INSTALL,
        refreshesPerInstall: config.OAUTH_REFRESH_LIMIT,
        refreshWindowSeconds: config.OAUTH_REFRESH_WINDOW_S,
      },
      publicUrl: config.GATEWAY_PUBLIC_URL,
      trustedProxies: config.GATEWAY_TRUSTED_PROXIES,
      // The bundle is dist/apps/gateway/main.js; the console's build is dist/apps/console.
      operations: {
        queues: () => queueStats(config.AMQP_URL, config.AMQP_PREFIX),
        redrive: (queue) => redriveDeadLetters(config.AMQP_URL, config.AMQP_PREFIX, queue),
      },
      operatorView: {
        services,
        queues: () => queueStats(config.AMQP_URL, config.AMQP_PREFIX),
        peekDeadLetters: (queue, limit) => peekDeadLetters(config.AMQP_URL, config.AMQP_PREFIX, queue, { limit }),
        resolveReplicas: replicaResolver(),
        askReadiness,
        crmBudgets: () => budgets.list(),
      },
      consoleDir: config.CONSOLE_DIR ?? path.join(__dirname, '..', 'console'),
      readiness: { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() },
    });
    return { server: await listen(app, config.GATEWAY_PORT) };
  },
});
