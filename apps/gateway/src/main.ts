import { listen } from '@ecomm-sync/http';
import { runService } from '@ecomm-sync/service-runtime';
import { createGatewayApp } from './app';
import { loadGatewayConfig } from './config';

runService({
  name: 'gateway',
  loadConfig: loadGatewayConfig,
  start: async ({ config, logger, database, broker }) => {
    const app = createGatewayApp({
      repositories: database.repositories,
      broker,
      logger,
      bodyLimit: config.GATEWAY_BODY_LIMIT,
      adminToken: config.ADMIN_TOKEN,
      crmBaseUrl: config.CRM_BASE_URL,
      lookupCacheMs: config.GATEWAY_LOOKUP_CACHE_MS,
      readiness: { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() },
    });
    return { server: await listen(app, config.GATEWAY_PORT) };
  },
});
