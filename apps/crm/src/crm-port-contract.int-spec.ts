import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import axios from 'axios';
import mongoose, { type Connection } from 'mongoose';
import { HttpCrmClient } from '@ecomm-sync/crm-client';
import { createLogger } from '@ecomm-sync/logger';
import { testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { describeCrmPortContract } from '@ecomm-sync/testing-fakes';
import { createCrmApp } from './app';
import { CrmStore } from './data-access/crm-store';

/** The contract FakeCrm passes (its spec), by HttpCrmClient against the built-in CRM over HTTP: each case gets a portal of its own. */
describe('HttpCrmClient against the built-in CRM', () => {
  let connection: Connection;
  let server: Server;
  let baseUrl: string;
  let portalId = 700;

  beforeAll(async () => {
    connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: uniqueName('crm-contract').replace(/-/g, '_') }).asPromise();
    const store = new CrmStore(connection);
    await store.createIndexes();
    const app = createCrmApp({
      store,
      logger: createLogger('crm-contract', 'error'),
      adminToken: 'admin-token',
      defaultPipelineLimit: 5,
      bodyLimit: '1mb',
      ready: () => true,
    });
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await connection?.dropDatabase();
    await connection?.close();
  });

  describeCrmPortContract('HttpCrmClient', async () => {
    const token = `contract-token-of-portal-${++portalId}`;
    await axios.put(`${baseUrl}/crm/admin/v1/accounts/${portalId}`, { token }, { headers: { authorization: 'Bearer admin-token' } });
    return new HttpCrmClient({ baseUrl, token, timeoutMs: 5_000, maxWaitMs: 0 });
  });
});
