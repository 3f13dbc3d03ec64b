import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import mongoose from 'mongoose';
import type { ObjectType } from '@ecomm-sync/contracts';
import { syncKeyOf, SYNC_KEY_PROPERTY } from '@ecomm-sync/domain';
import { TestStack, type AppName, type TestPortal } from '@ecomm-sync/test-harness';
import { startPrivateRabbitMq, waitFor, type PrivateRabbitMq } from '@ecomm-sync/testing';

/** What a scenario breaks mid-stream: one app process, the database server, or the broker node. */
export type Fault = 'gateway' | 'mapper' | 'applier' | 'crm' | 'mongodb' | 'rabbitmq';
export const FAULTS: Fault[] = ['gateway', 'mapper', 'applier', 'crm', 'mongodb', 'rabbitmq'];

export interface ChaosOptions {
  /** Objects per scenario: half contacts, half deals associated with them. */
  objects: number;
  /** Messages per request. */
  batchSize: number;
  /** Requests sent per second (creates and updates together). */
  requestsPerSecond: number;
  /** How long the killed part stays down. */
  downMs: number;
  /** Where the apps' logs go (per scenario). */
  log?: (line: string) => void;
}

export interface ChaosResult {
  fault: Fault;
  /** Objects whose every message was acknowledged (204). */
  acknowledged: number;
  /** Objects in the CRM once, with the newest value of every property (and deals with their contact). */
  applied: number;
  lost: number;
  duplicated: number;
  wrongValue: number;
  /** Messages left in dead-letter queues (each must have an error record; none is expected here). */
  deadLettered: number;
  /** Answers other than 204 while the fault lasted, by status (0: no answer); 500s are defects. */
  answers: Record<string, number>;
  seconds: number;
  examples: string[];
}

/** The workspace root (where nx.json is), from source or from a bundle. */
const workspaceRoot = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) if (fs.existsSync(path.join(dir, 'nx.json'))) return dir;
  throw new Error(`no nx.json above ${__dirname}`);
})();

interface MongoServer {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}
// The project's launcher of the MongoDB-wire server (CommonJS, in tools/).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mongoLauncher = require(path.join(workspaceRoot, 'tools', 'infra', 'mongo-server.cjs')) as {
  startMongoServer(options: { port?: number; h2File?: string; logFile?: string }): Promise<MongoServer>;
};

/** The version of every property a message sends: `v1` on create, `v2` on the racing update. */
const contactOf = (n: number, version: number) => ({
  externalObjectId: `chaos-c-${n}`,
  action: 'UPSERT' as const,
  changedAt: 1_700_000_000_000 + version * 10_000_000 + n,
  properties: { email: `chaos-${n}@example.com`, firstname: `First ${n} v${version}`, lastname: `Last ${n} v${version}` },
});
const dealOf = (n: number, version: number) => ({
  externalObjectId: `chaos-d-${n}`,
  action: 'UPSERT' as const,
  changedAt: 1_700_000_000_000 + version * 10_000_000 + n,
  properties: { dealname: `Order ${n} v${version}`, amount: String(n * 10 + version), dealstage: version === 1 ? 'checkout_pending' : 'checkout_completed' },
  associations: { CONTACT: [`chaos-c-${n}`] },
});

/**
 * One scenario: a stack of its own (its own MongoDB-wire server on H2, and the given broker node),
 * a stream of creates and racing updates at a fixed rate, the fault injected a third of the way
 * in (SIGKILL, then a restart after `downMs`), and then every object checked in the CRM.
 * Requests that are not acknowledged are sent again, as an integrator would; only acknowledged
 * messages are owed.
 */
export async function runChaosScenario(fault: Fault, rabbit: PrivateRabbitMq, options: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const dataDir = fs.mkdtempSync(path.join(workspaceRoot, 'tmp', `chaos-${fault}-`));
  const h2File = path.join(dataDir, 'db.mv');
  const mongoLog = path.join(dataDir, 'mongo-server.log');
  let mongo = await mongoLauncher.startMongoServer({ h2File, logFile: mongoLog });
  const stack = await TestStack.start({
    infrastructure: { mongoUrl: mongo.url, amqpUrl: rabbit.url },
    env: {
      // A fault lasts seconds: retries must outlast it (DESIGN.md: bounded retries with delay).
      AMQP_RETRY_DELAY_MS: '1000',
      AMQP_MAX_ATTEMPTS: '15',
      // Info: repairs (refreshes, rewrites) are logged there, to explain a result.
      LOG_LEVEL: 'info',
    },
  });
  let crmDb: mongoose.Connection | undefined;
  try {
    const portal = await stack.createPortal();
    const half = Math.floor(options.objects / 2);
    const requests = buildRequests(half, options.batchSize);
    const answers: Record<string, number> = {};
    const count = (status: number) => (answers[String(status)] = (answers[String(status)] ?? 0) + 1);

    const faultAt = Math.floor(requests.length / 3);
    let faultDone: Promise<void> = Promise.resolve();
    const inject = async () => {
      log(`[chaos] ${fault}: SIGKILL`);
      if (fault === 'mongodb') {
        process.kill(mongo.pid, 'SIGKILL');
        await waitFor(() => !isAlive(mongo.pid), { timeoutMs: 10_000, message: 'the database server to die' });
      } else if (fault === 'rabbitmq') await rabbit.kill();
      else await stack.stopApp(fault as AppName, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, options.downMs)); // the outage itself, not a wait for an outcome
      log(`[chaos] ${fault}: restart`);
      if (fault === 'mongodb') mongo = await mongoLauncher.startMongoServer({ port: mongo.port, h2File, logFile: mongoLog });
      else if (fault === 'rabbitmq') await rabbit.restart();
      else await stack.startApp(fault as AppName);
    };

    await sendPaced(stack, portal, requests, options.requestsPerSecond, count, (index) => {
      if (index === faultAt) faultDone = inject();
    });
    await faultDone;
    log(`[chaos] ${fault}: ${requests.length} requests acknowledged; waiting for every object to be applied`);

    crmDb = await mongoose.createConnection(mongo.url, { dbName: `${stack.name}_crm` }).asPromise();
    const tenant = { portalId: portal.portalId, appId: null };
    const expected = expectedObjects(half, tenant);
    const check = () => checkCrm(crmDb!, portal.portalId, expected);
    // Done when every object is right, or when nothing changes for a while (then the check reports what is missing).
    let last = '';
    let stableSince = Date.now();
    const outcome = await waitFor(
      async () => {
        const result = await check();
        if (result.applied === expected.length) return result;
        const signature = JSON.stringify([result.applied, result.lost, result.wrongValue]);
        if (signature !== last) {
          last = signature;
          stableSince = Date.now();
        }
        return Date.now() - stableSince > 60_000 ? result : undefined;
      },
      { timeoutMs: 15 * 60_000, intervalMs: 1000, message: `the objects of the ${fault} scenario to be applied` },
    );
    const deadLettered = await deadLetterCount(rabbit.url, stack.name);
    if (outcome.applied !== expected.length) await writeDiagnosis(stack, crmDb, portal.portalId, fault, outcome.examples, log);
    return {
      fault,
      acknowledged: expected.length,
      ...outcome,
      deadLettered,
      answers,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await crmDb?.close().catch(() => undefined);
    await stack.stop().catch((error) => log(`[chaos] stopping the stack failed: ${String(error)}`));
    await mongo.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Starts the broker node that every scenario uses (and the rabbitmq scenario kills). */
export const startChaosBroker = () => startPrivateRabbitMq();

interface SyncRequest {
  objectType: ObjectType;
  messages: (ReturnType<typeof contactOf> | ReturnType<typeof dealOf>)[];
}

/** Creates of contacts and deals, each followed a few requests later by the update of the same objects. */
function buildRequests(half: number, batchSize: number): SyncRequest[] {
  const creates: SyncRequest[] = [];
  for (let from = 0; from < half; from += batchSize) {
    const ns = Array.from({ length: Math.min(batchSize, half - from) }, (_, i) => from + i);
    creates.push({ objectType: 'CONTACT', messages: ns.map((n) => contactOf(n, 1)) });
    creates.push({ objectType: 'DEAL', messages: ns.map((n) => dealOf(n, 1)) });
  }
  const requests: SyncRequest[] = [];
  const lag = 4;
  for (let i = 0; i < creates.length + lag; i++) {
    if (i < creates.length) requests.push(creates[i]);
    const updated = creates[i - lag];
    if (updated) {
      const ns = updated.messages.map((message) => Number(message.externalObjectId.split('-').pop()));
      requests.push({ objectType: updated.objectType, messages: ns.map((n) => (updated.objectType === 'CONTACT' ? contactOf(n, 2) : dealOf(n, 2))) });
    }
  }
  return requests;
}

/** Sends the requests at a fixed rate; each is sent again until acknowledged (204). */
async function sendPaced(stack: TestStack, portal: TestPortal, requests: SyncRequest[], perSecond: number, count: (status: number) => void, onSend: (index: number) => void) {
  const http = axios.create({ baseURL: `${stack.gatewayUrl}/extensions/ecomm`, params: { hapikey: portal.apiKey }, validateStatus: () => true, timeout: 15_000 });
  const sendOne = async (request: SyncRequest) => {
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      const status = await http
        .put('/v2/sync/messages', { storeId: 'default', objectType: request.objectType, messages: request.messages })
        .then((response) => response.status)
        .catch(() => 0);
      if (status === 204) return;
      count(status);
      if (status >= 400 && status < 500 && status !== 429) throw new Error(`the gateway refused a valid request with ${status}`);
      if (Date.now() > deadline) throw new Error('a request was not acknowledged within 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250)); // an integrator's back-off before sending again
    }
  };
  const inFlight: Promise<void>[] = [];
  const interval = 1000 / perSecond;
  const start = Date.now();
  for (let index = 0; index < requests.length; index++) {
    const due = start + index * interval;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    onSend(index);
    inFlight.push(sendOne(requests[index]));
  }
  await Promise.all(inFlight);
}

interface ExpectedObject {
  kind: 'contacts' | 'deals';
  n: number;
  syncKey: string;
  properties: Record<string, string>;
}

function expectedObjects(half: number, tenant: { portalId: number; appId: null }): ExpectedObject[] {
  const objects: ExpectedObject[] = [];
  for (let n = 0; n < half; n++) {
    objects.push({ kind: 'contacts', n, syncKey: syncKeyOf(tenant, 'default', 'CONTACT', `chaos-c-${n}`, 0), properties: contactOf(n, 2).properties });
    const { dealname, amount, dealstage } = dealOf(n, 2).properties;
    objects.push({ kind: 'deals', n, syncKey: syncKeyOf(tenant, 'default', 'DEAL', `chaos-d-${n}`, 0), properties: { dealname, amount, dealstage } });
  }
  return objects;
}

/** Every expected object in the CRM's own database: present once, newest values, deals with their contact. */
async function checkCrm(crmDb: mongoose.Connection, portalId: number, expected: ExpectedObject[]) {
  const docs = await crmDb
    .collection('crm_objects')
    .find({ portalId, archived: { $ne: true }, objectType: { $in: ['contacts', 'deals'] } }, { projection: { _id: 1, objectType: 1, properties: 1, associations: 1 } })
    .toArray();
  const bySyncKey = new Map<string, typeof docs>();
  for (const doc of docs) {
    const key = (doc.properties as Record<string, string>)?.[SYNC_KEY_PROPERTY];
    if (!key) continue;
    bySyncKey.set(key, [...(bySyncKey.get(key) ?? []), doc]);
  }
  const contactIds = new Map<number, number>();
  for (const object of expected) {
    const found = bySyncKey.get(object.syncKey);
    if (object.kind === 'contacts' && found?.length === 1) contactIds.set(object.n, Number(found[0]._id));
  }
  let applied = 0;
  let lost = 0;
  let duplicated = 0;
  let wrongValue = 0;
  const examples: string[] = [];
  for (const object of expected) {
    const found = bySyncKey.get(object.syncKey) ?? [];
    if (found.length === 0) {
      lost++;
      if (examples.length < 5) examples.push(`${object.kind} ${object.n}: not in the CRM`);
      continue;
    }
    if (found.length > 1) {
      duplicated++;
      if (examples.length < 5) examples.push(`${object.kind} ${object.n}: ${found.length} times in the CRM`);
      continue;
    }
    const properties = found[0].properties as Record<string, string>;
    const wrong = Object.entries(object.properties).filter(([name, value]) => properties[name] !== value);
    const associations = (found[0].associations ?? {}) as Record<string, number[]>;
    const contact = contactIds.get(object.n);
    const unassociated = object.kind === 'deals' && (contact === undefined || !(associations.contacts ?? []).map(Number).includes(contact));
    if (wrong.length > 0 || unassociated) {
      wrongValue++;
      if (examples.length < 5) examples.push(`${object.kind} ${object.n}: ${wrong.map(([name, value]) => `${name}=${properties[name]} (sent ${value})`).join(', ')}${unassociated ? ' not associated with its contact' : ''}`);
      continue;
    }
    applied++;
  }
  return { applied, lost, duplicated, wrongValue, examples };
}

/**
 * For a scenario that broke: what the service recorded about the first objects it got wrong (their
 * sync status, waiting entries and errors, and the CRM objects), in tmp/chaos-<fault>-diagnosis.json,
 * since the stack's databases are dropped when it stops.
 */
async function writeDiagnosis(stack: TestStack, crmDb: mongoose.Connection, portalId: number, fault: Fault, examples: string[], log: (line: string) => void) {
  const ids = examples.flatMap((example) => {
    const [kind, n] = example.split(' ');
    return kind === 'deals' ? [`chaos-d-${n.replace(':', '')}`, `chaos-c-${n.replace(':', '')}`] : [`chaos-c-${n.replace(':', '')}`];
  });
  const find = async (collection: string) => (await stack.syncCollection(collection)).find({ portalId, externalObjectId: { $in: ids } }).toArray();
  const diagnosis = {
    examples,
    objectSyncs: await find('object_syncs'),
    waitingObjects: await find('waiting_objects'),
    syncErrors: await find('sync_errors'),
    objectStates: await find('object_states'),
    crmObjects: await crmDb
      .collection('crm_objects')
      .find({
        portalId,
        [`properties.${SYNC_KEY_PROPERTY}`]: {
          $in: ids.map((id) => syncKeyOf({ portalId, appId: null }, 'default', id.startsWith('chaos-c-') ? 'CONTACT' : 'DEAL', id, 0)),
        },
      })
      .toArray(),
  };
  const file = path.join(workspaceRoot, 'tmp', `chaos-${fault}-diagnosis.json`);
  fs.writeFileSync(file, JSON.stringify(diagnosis, null, 2));
  log(`[chaos] ${fault}: what the service recorded about the first wrong objects is in ${path.relative(workspaceRoot, file)}`);
}

async function deadLetterCount(url: string, prefix: string): Promise<number> {
  const amqplib = await import('amqplib');
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    let total = 0;
    for (const queue of ['mapper.sync-batches', 'applier.mapped-changes', 'mapper.settings-work', 'import-coordinator.events', 'webhook-dispatcher.requests']) {
      total += (await channel.checkQueue(`${prefix}.${queue}.dlq`)).messageCount;
    }
    await channel.close();
    return total;
  } finally {
    await connection.close();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One line per scenario, for the console and docs/reliability.md. */
export function resultTable(results: ChaosResult[]): string {
  const header = '| Fault (SIGKILL, restart) | Acknowledged | Applied | Lost | Duplicated | Wrong final value | Dead-lettered | Answers other than 204 | Seconds |';
  const rule = '|---|---|---|---|---|---|---|---|---|';
  const rows = results.map(
    (r) =>
      `| ${r.fault} | ${r.acknowledged} | ${r.applied} | ${r.lost} | ${r.duplicated} | ${r.wrongValue} | ${r.deadLettered} | ${
        Object.entries(r.answers)
          .map(([status, n]) => `${status === '0' ? 'no answer' : status}: ${n}`)
          .join(', ') || 'none'
      } | ${r.seconds} |`,
  );
  return [header, rule, ...rows].join('\n');
}

/** Whether a scenario kept every promise: nothing lost, nothing twice, newest values, no 500. */
export const kept = (result: ChaosResult): boolean =>
  result.applied === result.acknowledged && result.lost === 0 && result.duplicated === 0 && result.wrongValue === 0 && result.deadLettered === 0 && !result.answers['500'];
