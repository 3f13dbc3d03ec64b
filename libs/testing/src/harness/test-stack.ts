import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import type { ObjectType, PropertyValue } from '@ecomm-sync/contracts';
import { CrmConnections, type CrmConnectionsOptions, HttpCrmClient } from '@ecomm-sync/crm-client';
import { connectDatabase, SecretBox, type Database } from '@ecomm-sync/data-access';
import { freePort, testInfrastructure, uniqueName, waitFor } from '../support';
import { seedObjectStates } from './seed-portal';
import { createSyncReadyPortal, type TestPortal } from './sync-ready-portal';
import {
  ALL_APPS,
  freeStackPorts,
  METRICS_PORT_VARIABLES,
  PORT_VARIABLES,
  removeStackInfrastructure,
  stackEnvironment,
  workspaceRoot,
  type AppName,
  type StackPorts,
} from './stack-environment';

export type { AppName } from './stack-environment';
export type { TestPortal } from './sync-ready-portal';

const instanceKey = (app: AppName, instance: string) => (instance ? `${app}#${instance}` : app);

export interface StackOptions {
  apps?: AppName[];
  /** Extra environment for every app (for example a short AMQP_RETRY_DELAY_MS). */
  env?: Record<string, string>;
  /** Extra node options for every app (for example `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeOptions?: string[];
  /** A database server and broker of the caller's own (default: the test run's, testInfrastructure). */
  infrastructure?: { mongoUrl: string; amqpUrl: string };
}

/**
 * The whole service as separate processes (the built bundles in dist/), on free ports, with its
 * own AMQP prefix and databases, so that stacks never see each other. Logs go to tmp/e2e-logs.
 */
export class TestStack {
  /** Running processes by app, or `app#instance` for extra replicas. */
  private readonly processes = new Map<string, ChildProcess>();
  /** Where each extra replica listens (an app's first instance listens on `ports`). */
  private readonly replicaPorts = new Map<string, number>();
  private database?: Database;

  private constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
    private readonly stackPorts: StackPorts,
    private readonly logDir: string,
    private readonly nodeOptions: string[] = [],
  ) {}

  /** Each app's port: the API port of the gateway and the CRM, the health port of the workers. */
  get ports(): Record<AppName, number> {
    return this.stackPorts.ports;
  }

  /** Where an app serves /metrics: the internal port of the gateway and the CRM, a worker's health port. */
  metricsUrl(app: AppName): string {
    return `http://127.0.0.1:${this.stackPorts.metricsPorts[app] ?? this.ports[app]}`;
  }

  static async start(options: StackOptions = {}): Promise<TestStack> {
    const { mongoUrl, amqpUrl } = options.infrastructure ?? testInfrastructure();
    const name = uniqueName('e2e').replace(/-/g, '_');
    const stackPorts = await freeStackPorts();
    const env = stackEnvironment(name, { mongoUrl, amqpUrl }, stackPorts, options.env);
    const logDir = path.join(workspaceRoot, 'tmp', 'e2e-logs', name);
    fs.mkdirSync(logDir, { recursive: true });
    const stack = new TestStack(name, env, stackPorts, logDir, options.nodeOptions);
    try {
      for (const app of options.apps ?? ALL_APPS) await stack.startApp(app);
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  /** The first gateway's API: `urlOf('gateway')`. */
  get gatewayUrl(): string {
    return this.urlOf('gateway');
  }

  /** Where an app instance serves its API (the gateway, the CRM) or its health (a worker): `instance` as given to startApp. */
  urlOf(app: AppName, instance = ''): string {
    const port = instance ? this.replicaPorts.get(instanceKey(app, instance)) : this.ports[app];
    if (port === undefined) throw new Error(`${instanceKey(app, instance)} was never started`);
    return `http://127.0.0.1:${port}`;
  }

  /** The built-in CRM's API: `urlOf('crm')`. */
  get crmUrl(): string {
    return this.urlOf('crm');
  }

  /** A variable of the environment every app of this stack got (stackEnvironment), e.g. AMQP_PREFIX. */
  setting(name: string): string | undefined {
    return this.env[name];
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
    const metricsVariable = METRICS_PORT_VARIABLES[app];
    // An extra replica needs an internal port of its own too.
    const metricsPort = metricsVariable && instance ? { [metricsVariable]: String(await freePort()) } : {};
    const key = instanceKey(app, instance);
    const log = fs.openSync(this.logFile(app, instance), 'a');
    const child = spawn(process.execPath, ['--enable-source-maps', ...this.nodeOptions, bundle], {
      env: { ...this.env, [PORT_VARIABLES[app]]: String(port), ...metricsPort },
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.processes.set(key, child);
    if (instance) this.replicaPorts.set(key, port);
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
    const crm = { baseUrl: this.crmUrl, adminToken: this.adminToken };
    const gateway = this.processes.has('gateway') ? { url: this.gatewayUrl, adminToken: this.adminToken } : null;
    return createSyncReadyPortal(await this.repositories(), await this.connections(), this.secretBox(), { crm, gateway });
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
    await seedObjectStates((await this.repositories()).objectStates, portal.portalId, objectType, count, make);
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
    await removeStackInfrastructure(this.env);
  }
}
