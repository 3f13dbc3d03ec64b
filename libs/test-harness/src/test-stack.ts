import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import mongoose from 'mongoose';
import type { ObjectType, PropertyValue } from '@ecomm-sync/contracts';
import { HttpCrmClient } from '@ecomm-sync/crm-client';
import { CrmConnections, type CrmConnectionsOptions } from '@ecomm-sync/crm-connections';
import { emptyObjectState, mergeMessage } from '@ecomm-sync/domain';
import { connectDatabase, SecretBox, type Database } from '@ecomm-sync/data-access';
import { purgeAndDeleteTopology } from '@ecomm-sync/messaging';
import { prepareSyncReadyPortal, provisionPortal } from '@ecomm-sync/provisioning';
import { freePort, testInfrastructure, uniqueName, waitFor } from '@ecomm-sync/testing';

export type AppName = 'gateway' | 'mapper' | 'applier' | 'crm' | 'import-coordinator' | 'webhook-dispatcher';
const ALL_APPS: AppName[] = ['crm', 'gateway', 'mapper', 'applier', 'import-coordinator', 'webhook-dispatcher'];
const instanceKey = (app: AppName, instance: string) => (instance ? `${app}#${instance}` : app);

const PORT_VARIABLES: Record<AppName, string> = {
  gateway: 'GATEWAY_PORT',
  crm: 'CRM_PORT',
  mapper: 'MAPPER_HEALTH_PORT',
  applier: 'APPLIER_HEALTH_PORT',
  'import-coordinator': 'IMPORT_COORDINATOR_HEALTH_PORT',
  'webhook-dispatcher': 'WEBHOOK_DISPATCHER_HEALTH_PORT',
};

/** The workspace root: the nearest folder up from here that holds nx.json (works from source and from a bundle). */
const workspaceRoot = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'nx.json'))) return dir;
  }
  throw new Error(`no nx.json above ${__dirname}`);
})();

export interface StackOptions {
  apps?: AppName[];
  /** Extra environment for every app (for example a short AMQP_RETRY_DELAY_MS). */
  env?: Record<string, string>;
  /** Extra node options for every app (for example `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeOptions?: string[];
  /** A database server and broker of the caller's own (default: the test run's, testInfrastructure). */
  infrastructure?: { mongoUrl: string; amqpUrl: string };
}

export interface TestPortal {
  portalId: number;
  apiKey: string;
  /** The token of the portal's built-in CRM account (stored sealed), for tests that read the CRM directly. */
  crmToken: string;
}

/**
 * The whole service as separate processes (the built bundles in dist/), on free ports, with its
 * own AMQP prefix and databases, so that stacks never see each other. Logs go to tmp/e2e-logs.
 */
export class TestStack {
  /** Running processes by app, or `app#instance` for extra replicas. */
  private readonly processes = new Map<string, ChildProcess>();
  private database?: Database;

  private constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
    readonly ports: Record<AppName, number>,
    private readonly logDir: string,
    private readonly nodeOptions: string[] = [],
  ) {}

  static async start(options: StackOptions = {}): Promise<TestStack> {
    const { mongoUrl, amqpUrl } = options.infrastructure ?? testInfrastructure();
    const name = uniqueName('e2e').replace(/-/g, '_');
    const ports = Object.fromEntries(await Promise.all(ALL_APPS.map(async (app) => [app, await freePort()]))) as Record<AppName, number>;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      MONGO_URL: mongoUrl,
      MONGO_DB: `${name}_sync`,
      CRM_MONGO_DB: `${name}_crm`,
      AMQP_URL: amqpUrl,
      AMQP_PREFIX: name,
      AMQP_RETRY_DELAY_MS: '300',
      ADMIN_TOKEN: `admin-${name}`,
      SECRETS_KEY: `secrets-${name}`,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      CRM_ALLOW_HTTP: 'true',
      CRM_BASE_URL: `http://127.0.0.1:${ports.crm}`,
      GATEWAY_PUBLIC_URL: `http://127.0.0.1:${ports.gateway}`,
      LOG_LEVEL: 'info',
      // Tests poll status endpoints as fast as they like; rate limits have their own test.
      RATE_LIMIT_REQUESTS: '0',
      ...Object.fromEntries(ALL_APPS.map((app) => [PORT_VARIABLES[app], String(ports[app])])),
      // The console's operations page asks each service's /readyz.
      SERVICE_READINESS_URLS: ALL_APPS.filter((app) => app !== 'gateway')
        .map((app) => `${app}=http://127.0.0.1:${ports[app]}`)
        .join(','),
      ...options.env,
    };
    const logDir = path.join(workspaceRoot, 'tmp', 'e2e-logs', name);
    fs.mkdirSync(logDir, { recursive: true });
    const stack = new TestStack(name, env, ports, logDir, options.nodeOptions);
    try {
      for (const app of options.apps ?? ALL_APPS) await stack.startApp(app);
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.ports.gateway}`;
  }

  get crmUrl(): string {
    return `http://127.0.0.1:${this.ports.crm}`;
  }

  get adminToken(): string {
    return this.env.ADMIN_TOKEN;
  }

  /**
   * Starts an app as its own process. `instance` names an extra replica of an app that already
   * runs (its own health port and log file), as operations would scale it.
   */
  async startApp(app: AppName, instance = ''): Promise<void> {
    const bundle = path.join(workspaceRoot, 'dist', 'apps', app, 'main.js');
    if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: build the apps first (npx nx run-many -t build)`);
    const port = instance ? await freePort() : this.ports[app];
    const key = instanceKey(app, instance);
    const log = fs.openSync(this.logFile(app, instance), 'a');
    const child = spawn(process.execPath, ['--enable-source-maps', ...this.nodeOptions, bundle], {
      env: { ...this.env, [PORT_VARIABLES[app]]: String(port) },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.processes.set(key, child);
    let exited = false;
    child.once('exit', () => (exited = true));
    await waitFor(
      async () => {
        if (exited) throw new Error(`${key} exited during start; see ${this.logFile(app, instance)}`);
        const response = await axios.get(`http://127.0.0.1:${port}/readyz`, { validateStatus: () => true, timeout: 1000 });
        return response.status === 200;
      },
      { timeoutMs: 30_000, intervalMs: 100, message: `${key} to be ready` },
    ).catch((error) => {
      throw new Error(`${String(error.message)}; see ${this.logFile(app, instance)}`);
    });
  }

  /** Process id of a running app (to measure its memory). */
  pid(app: AppName, instance = ''): number {
    const pid = this.processes.get(instanceKey(app, instance))?.pid;
    if (!pid) throw new Error(`${instanceKey(app, instance)} is not running`);
    return pid;
  }

  /** Stops one app: SIGKILL by default, as a crash would. */
  async stopApp(app: AppName, signal: NodeJS.Signals = 'SIGKILL', instance = ''): Promise<void> {
    const key = instanceKey(app, instance);
    const child = this.processes.get(key);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
    this.processes.delete(key);
  }

  /** The JSON log lines an app instance wrote so far (to assert on what each replica did). */
  logLines(app: AppName, instance = ''): Record<string, unknown>[] {
    return this.output(app, instance)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Everything an app instance wrote so far: its log lines and what node printed (for example --trace-gc). */
  output(app: AppName, instance = ''): string {
    const file = this.logFile(app, instance);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }

  private logFile(app: AppName, instance: string): string {
    return path.join(this.logDir, `${instance ? `${app}-${instance}` : app}.log`);
  }

  /** A raw collection of the sync database (for simulating lost writes and asserting on counts). */
  async syncCollection(name: string) {
    await this.repositories();
    return this.database!.connection.collection(name);
  }

  /** Direct access to the sync database, for arranging state and asserting on it. */
  async repositories() {
    this.database ??= await connectDatabase(this.env.MONGO_URL, this.env.MONGO_DB);
    return this.database.repositories;
  }

  /** Portals' CRM connections as the services resolve them (the stack's SECRETS_KEY and built-in CRM), with the test's overrides. */
  async connections(overrides: Partial<CrmConnectionsOptions> = {}): Promise<CrmConnections> {
    const repositories = await this.repositories();
    return new CrmConnections({ portals: repositories.portals, secretBox: this.secretBox(), builtinBaseUrl: this.crmUrl, timeoutMs: 5_000, ...overrides });
  }

  private secretBox(): SecretBox {
    return new SecretBox(this.env.SECRETS_KEY);
  }

  /**
   * A portal made through the admin API (or directly when the stack runs no gateway), then made
   * ready to sync: ecommerce setup in its CRM, store `default`, enabled settings.
   */
  async createPortal(): Promise<TestPortal> {
    const repositories = await this.repositories();
    let portalId: number;
    let apiKey: string;
    if (this.processes.has('gateway')) {
      const created = await axios.post(
        `${this.gatewayUrl}/admin/v1/portals`,
        { name: 'test portal' },
        { headers: { authorization: `Bearer ${this.adminToken}` } },
      );
      ({ portalId, apiKey } = created.data as { portalId: number; apiKey: string });
    } else {
      ({ portalId, apiKey } = await provisionPortal(repositories, { baseUrl: this.crmUrl, adminToken: this.adminToken }, this.secretBox()));
    }
    const portal = (await repositories.portals.findById(portalId))!;
    const connections = await this.connections();
    await prepareSyncReadyPortal(repositories, connections.clientFor(portal), portalId);
    return { portalId, apiKey, crmToken: connections.builtinToken(portal) };
  }

  /**
   * Stores the raw state of `count` objects of a direct-mode portal in store `default`, as if their
   * messages had been received and merged long ago (changedAt 1). For tests and benchmarks at scale.
   */
  async seedStates(
    portal: TestPortal,
    objectType: ObjectType,
    count: number,
    make: (n: number) => { externalObjectId: string; properties: Record<string, PropertyValue> },
  ): Promise<void> {
    const { objectStates } = await this.repositories();
    for (let from = 0; from < count; from += 5_000) {
      const objects = Array.from({ length: Math.min(5_000, count - from) }, (_, i) => {
        const { externalObjectId, properties } = make(from + i);
        const state = mergeMessage(emptyObjectState(), { externalObjectId, action: 'UPSERT', changedAt: 1, properties }, 1).state;
        return { externalObjectId, state };
      });
      await objectStates.insertNew({ tenant: { portalId: portal.portalId, appId: null }, storeId: 'default', objectType }, objects);
    }
  }

  /** A client of the portal's built-in CRM account (whatever its connection), to read what was synced. */
  crm(portal: TestPortal): HttpCrmClient {
    return new HttpCrmClient({ baseUrl: this.crmUrl, token: portal.crmToken });
  }

  /** Stops every app (SIGTERM), removes the AMQP topology and drops both databases. */
  async stop(): Promise<void> {
    await Promise.all(
      [...this.processes.keys()].map((key) => {
        const [app, instance = ''] = key.split('#') as [AppName, string?];
        return this.stopApp(app, 'SIGTERM', instance);
      }),
    );
    await this.database?.close();
    await purgeAndDeleteTopology(this.env.AMQP_URL, this.env.AMQP_PREFIX).catch(() => undefined);
    const connection = await mongoose.createConnection(this.env.MONGO_URL).asPromise();
    try {
      for (const db of [this.env.MONGO_DB, this.env.CRM_MONGO_DB]) await connection.useDb(db).dropDatabase();
    } finally {
      await connection.close();
    }
  }
}
