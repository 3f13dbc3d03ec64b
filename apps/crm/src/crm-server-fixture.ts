import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import axios from 'axios';
import mongoose, { type Connection } from 'mongoose';
import { createLogger } from '@ecomm-sync/runtime';
import { testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { createCrmApp } from './app';
import { CrmStore } from './data-access/crm-store';

/** For the CRM's integration specs: the built-in CRM over HTTP on a database of the spec's own, and accounts made through its admin API. */
export interface TestCrmServer {
  baseUrl: string;
  /** The CRM's database, for checks of what is stored. */
  connection: Connection;
  /** Makes (or updates) the account of a portal with this token. */
  account(portalId: number, token: string): Promise<void>;
  /** Registers an OAuth client for the portal's account: its refresh token (POST .../oauth-grants). */
  oauthGrant(portalId: number, clientId: string, clientSecret: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestCrmServerOptions {
  /** The time OAuth access tokens are issued and expire by: a test moves it instead of waiting. */
  clock?: () => number;
}

/** For the CRM's integration specs that call it in process (supertest): the app over a database of the spec's own. */
export interface TestCrmApp {
  app: ReturnType<typeof createCrmApp>;
  /** The CRM's database, for checks of what is stored and for leaving what a crash would. */
  connection: Connection;
  /** Drops the spec's database. */
  close(): Promise<void>;
}

export async function openTestCrmApp(name: string, { bodyLimit = '1mb', defaultPipelineLimit = 2 } = {}): Promise<TestCrmApp> {
  const connection: Connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: uniqueName(name).replace(/-/g, '_') }).asPromise();
  const store = new CrmStore(connection);
  await store.createIndexes().catch(async (error: unknown) => {
    await connection.close();
    throw error;
  });
  const app = createCrmApp({ store, logger: createLogger(name, 'error'), adminToken: 'admin-token', defaultPipelineLimit, bodyLimit, ready: () => true });
  return {
    app,
    connection,
    close: async () => {
      await connection.dropDatabase();
      await connection.close();
    },
  };
}

export async function startTestCrmServer(name: string, options: TestCrmServerOptions = {}): Promise<TestCrmServer> {
  const connection: Connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: uniqueName(name).replace(/-/g, '_') }).asPromise();
  const store = new CrmStore(connection);
  await store.createIndexes();
  const app = createCrmApp({
    store,
    logger: createLogger(name, 'error'),
    adminToken: 'admin-token',
    defaultPipelineLimit: 5,
    bodyLimit: '1mb',
    ready: () => true,
    clock: options.clock,
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    connection,
    account: async (portalId, token) => {
      await axios.put(`${baseUrl}/crm/admin/v1/accounts/${portalId}`, { token }, { headers: { authorization: 'Bearer admin-token' } });
    },
    oauthGrant: async (portalId, clientId, clientSecret) => {
      const url = `${baseUrl}/crm/admin/v1/accounts/${portalId}/oauth-grants`;
      const { data } = await axios.post<{ refreshToken: string }>(url, { clientId, clientSecret }, { headers: { authorization: 'Bearer admin-token' } });
      return data.refreshToken;
    },
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await connection.dropDatabase();
      await connection.close();
    },
  };
}
