import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import { ConfigError, createLogger, listen, onShutdown, startHealthServer } from '@ecomm-sync/runtime';
import { startObservability } from '@ecomm-sync/service-runtime';
import { createCrmApp } from './app';
import { hostedLimitsFromConfig, loadCrmConfig } from './config';
import { CrmStore } from './data-access/crm-store';
import { newEdgeSecret, startCrmEdge } from './edge/crm-edge';

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
  const edgeSecret = newEdgeSecret();
  const app = createCrmApp({
    store,
    logger,
    adminToken: config.ADMIN_TOKEN,
    defaultPipelineLimit: config.CRM_DEFAULT_PIPELINE_LIMIT,
    bodyLimit: config.CRM_BODY_LIMIT,
    ready: () => connection.readyState === 1,
    hostedLimits: { defaults: environmentLimits, usageRetentionSeconds: config.CRM_USAGE_RETENTION_SECONDS },
    edgeSecret,
  });
  // The app listens on loopback only; requests reach it through the edge thread on CRM_PORT, which
  // stamps their arrival for the hosted limits (decision 21, addendum of 2026-11-27).
  const server = await listen(app, 0, '127.0.0.1');
  const edge = await startCrmEdge({
    port: config.CRM_PORT,
    upstreamPort: (server.address() as AddressInfo).port,
    secret: edgeSecret,
    onFailure: (error) => {
      logger.error('the CRM edge thread failed; stopping', { error: String(error) });
      process.exit(1);
    },
  });
  const internal = await startHealthServer(config.CRM_METRICS_PORT, { mongo: () => connection.readyState === 1 }, logger);
  logger.info('crm listening', { port: config.CRM_PORT, metricsPort: config.CRM_METRICS_PORT });
  onShutdown(logger, async () => {
    await edge.close();
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
