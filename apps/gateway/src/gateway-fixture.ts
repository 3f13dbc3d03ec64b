import type { Express } from 'express';
import { connectDatabase, type Database } from '@ecomm-sync/data-access';
import { createLogger } from '@ecomm-sync/runtime';
import { Broker, purgeAndDeleteTopology } from '@ecomm-sync/messaging';
import { TEST_SECRETS_KEY, testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { createGatewayApp, type GatewayDeps } from './app';

export interface GatewayFixture {
  database: Database;
  broker: Broker;
  /** The test's own broker prefix (and database name). */
  prefix: string;
  app: Express;
  /** Another gateway app (a replica, or other settings) on the same database and broker. */
  gateway(overrides?: Partial<GatewayDeps>): Promise<Express>;
  close(): Promise<void>;
}

/**
 * For the gateway's integration specs: the real MongoDB-wire server and RabbitMQ, with a database
 * and a broker prefix of the spec's own, removed again by `close()`.
 */
export async function startGatewayFixture(
  name: string,
  overrides: (fixture: Pick<GatewayFixture, 'database' | 'broker'>) => Partial<GatewayDeps> = () => ({}),
): Promise<GatewayFixture> {
  const { mongoUrl, amqpUrl } = testInfrastructure();
  const prefix = uniqueName(name);
  const database = await connectDatabase(mongoUrl, prefix.replace(/-/g, '_'));
  const broker = await Broker.connect({ url: amqpUrl, prefix, prefetch: 10, retryDelayMs: 100, maxAttempts: 3, logger: createLogger('test', 'error') });
  const base: GatewayDeps = {
    repositories: database.repositories,
    broker,
    logger: createLogger('gateway-test', 'error'),
    bodyLimit: '1mb',
    adminToken: 'admin',
    secretsKey: TEST_SECRETS_KEY,
    crmBaseUrl: 'http://127.0.0.1:1',
    // Test CRMs listen on loopback http.
    crmAllowHttp: true,
    readiness: {},
    ...overrides({ database, broker }),
  };
  // An override of one OAuth setting keeps the fixture's others (other settings objects are replaced whole).
  const gateway = (more: Partial<GatewayDeps> = {}) => createGatewayApp({ ...base, ...more, oauth: { ...base.oauth, ...more.oauth } });
  return {
    database,
    broker,
    prefix,
    app: await gateway(),
    gateway,
    close: async () => {
      await broker.close(100);
      await purgeAndDeleteTopology(amqpUrl, prefix);
      await database.connection.dropDatabase();
      await database.close();
    },
  };
}
