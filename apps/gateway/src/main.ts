import { ConfigError } from '@ecomm-sync/config';
import { connectDatabase } from '@ecomm-sync/data-access';
import { listen, onShutdown } from '@ecomm-sync/http';
import { createLogger } from '@ecomm-sync/logger';
import { Broker } from '@ecomm-sync/messaging';
import { createGatewayApp } from './app';
import { loadGatewayConfig } from './config';

async function main() {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
  const broker = await Broker.connect({
    url: config.AMQP_URL,
    prefix: config.AMQP_PREFIX,
    prefetch: config.AMQP_PREFETCH,
    retryDelayMs: config.AMQP_RETRY_DELAY_MS,
    maxAttempts: config.AMQP_MAX_ATTEMPTS,
    logger,
  });
  const app = createGatewayApp({
    repositories: database.repositories,
    broker,
    logger,
    bodyLimit: config.GATEWAY_BODY_LIMIT,
    adminToken: config.ADMIN_TOKEN,
    crmBaseUrl: config.CRM_BASE_URL,
    readiness: { mongo: () => database.ping(), rabbitmq: () => broker.isConnected() },
  });
  const server = await listen(app, config.GATEWAY_PORT);
  logger.info('gateway listening', { port: config.GATEWAY_PORT });
  onShutdown(logger, async () => {
    await new Promise((resolve) => server.close(resolve));
    await broker.close();
    await database.close();
  });
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
