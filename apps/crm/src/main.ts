import mongoose from 'mongoose';
import { ConfigError, createLogger, listen, onShutdown, startHealthServer } from '@ecomm-sync/runtime';
import { startObservability } from '@ecomm-sync/service-runtime';
import { createCrmApp } from './app';
import { hostedLimitsFromConfig, loadCrmConfig } from './config';
import { CrmStore } from './data-access/crm-store';

async function main() {
  const config = loadCrmConfig();
  const environmentLimits = hostedLimitsFromConfig(config); // fails on a wrong CRM_LIMIT_* before anything connects
  const logger = createLogger('crm', config.LOG_LEVEL);
  const observability = await startObservability('crm', config);
  const connection = await mongoose.createConnection(config.MONGO_URL, { dbName: config.CRM_MONGO_DB, autoIndex: false, maxPoolSize: 20 }).asPromise();
  const store = new CrmStore(connection);
  await store.createIndexes();
  const moved = await store.moveLegacyAssociations();
  if (moved > 0) logger.info('crm moved the associations of older objects to their own documents', { objects: moved });
  const app = createCrmApp({
    store,
    logger,
    adminToken: config.ADMIN_TOKEN,
    defaultPipelineLimit: config.CRM_DEFAULT_PIPELINE_LIMIT,
    bodyLimit: config.CRM_BODY_LIMIT,
    ready: () => connection.readyState === 1,
    hostedLimits: { defaults: environmentLimits, usageRetentionSeconds: config.CRM_USAGE_RETENTION_SECONDS },
  });
  const server = await listen(app, config.CRM_PORT);
  const internal = await startHealthServer(config.CRM_METRICS_PORT, { mongo: () => connection.readyState === 1 }, logger);
  logger.info('crm listening', { port: config.CRM_PORT, metricsPort: config.CRM_METRICS_PORT });
  onShutdown(logger, async () => {
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => internal.close(resolve));
    await connection.close();
    await observability.stop();
  });
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
