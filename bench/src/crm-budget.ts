/**
 * The CRM budget figure (issue 13): CRM requests and MongoDB operations per object, one object type
 * at a time on a portal whose CRM refuses nothing; then the throughput of two appliers against a
 * built-in CRM account limited to 190 requests per 10 s, as a ratio to what that budget allows at
 * the requests per object measured in the same run.
 */
import fs from 'node:fs';
import path from 'node:path';
import axios from 'axios';
import mongoose from 'mongoose';
import { CrmAdminClient, type CrmAccountUsage } from '@ecomm-sync/crm-client';
import { TestStack, type TestPortal } from '@ecomm-sync/test-harness';
import { testInfrastructure, waitFor } from '@ecomm-sync/testing';
import { startCrmProxy, type CrmProxyStats } from './crm-proxy';
import { send, type MakeObject } from './load';
import { round } from './stats';

const OBJECT_TYPES = ['CONTACT', 'PRODUCT', 'DEAL', 'LINE_ITEM'] as const;
type BenchObjectType = (typeof OBJECT_TYPES)[number];
/** The hosted CRM's professional tier: 190 requests per rolling 10 s, 4 searches a second. */
const BURST_PER_10S = 190;
const SEARCH_PER_SECOND = 4;
/** The mixed load's shares, as in the end-to-end figure. */
const MIX: Record<BenchObjectType, number> = { CONTACT: 0.4, PRODUCT: 0.1, DEAL: 0.3, LINE_ITEM: 0.2 };
/** A window of our budget: a slot's grants count for 21 slots of 500 ms after it (decision 20). */
const BUDGET_WINDOW_MS = 11_000;

export interface CrmBudgetFigure {
  /** Objects applied per second (first send to last applied) ÷ what 190 per 10 s allows at the run's requests per object. */
  ratio: number;
  /** The CRM's requests per second after the first budget window until the end ÷ 19 (the first 190 requests are free in any rolling limit). */
  steadyRatio: number | null;
  /** CRM answers that were 429 ÷ all CRM answers in the limited run. */
  rateLimitedShare: number;
  /** CRM requests per 100 objects of each type, each type sent alone to a CRM that refuses nothing. */
  requestsPer100: Record<BenchObjectType, number>;
  /** MongoDB commands (all apps, background work removed) per object over those four phases; null: the server does not count. */
  dbOperationsPerObject: number | null;
  dbOperationsPer100: Record<BenchObjectType, number> | null;
  objects: number;
  counts: Record<BenchObjectType, number>;
  seconds: number;
  objectsPerSecond: number;
  requests: number;
  limited: number;
  requestsPerObject: number;
  allowedObjectsPerSecond: number;
  maxIn10s: number;
  /** Times an applier parked a portal's changes (decision 23) during the limited run. */
  parkings: number;
  /** The most changes parked at once (sampled each second). */
  peakParked: number;
  /** CRM requests answered in each second of the limited run, from its first request. */
  crmRequestsPerSecond: number[];
  /** Permits our budget granted in the limited run (searches included), and search permits: more than the requests sent means permits dropped unused. */
  budgetGranted: number;
  budgetSearchGranted: number;
  /** What the apps' CRM requests met in the limited run, seen by a proxy in front of the CRM. */
  crm: CrmProxyStats;
  /** The appliers' CRM_MAX_WAIT_MS: null, their default (`--crm-max-wait-ms` sets it). */
  crmMaxWaitMs: number | null;
}

const log = (message: string) => console.log(`[bench] ${message}`);

function makers(counts: Record<BenchObjectType, number>): Record<BenchObjectType, MakeObject> {
  return {
    CONTACT: (i) => ({ properties: { email: `budget-${i}@example.com`, firstname: `First ${i}`, lastname: 'Budget' } }),
    PRODUCT: (i) => ({ properties: { name: `Product ${i}`, price: (i % 100) + 0.5 } }),
    DEAL: (i) => ({
      properties: { dealname: `Order ${i}`, dealstage: 'checkout_completed', amount: i % 500 },
      associations: { CONTACT: [`contact-${i % counts.CONTACT}`] },
    }),
    LINE_ITEM: (i) => ({
      properties: { quantity: (i % 5) + 1, price: 9.5 },
      associations: { DEAL: [`deal-${i % counts.DEAL}`], PRODUCT: [`product-${i % counts.PRODUCT}`] },
    }),
  };
}

/** The bench's own connection: reads object_syncs and the server's counters, and counts its own commands to leave them out. */
async function observer(stack: TestStack) {
  const connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { monitorCommands: true }).asPromise();
  let own = 0;
  connection.getClient().on('commandStarted', () => own++);
  const syncDb = connection.useDb(`${stack.name}_sync`);
  const syncs = syncDb.collection('object_syncs');
  return {
    syncs,
    parked: syncDb.collection('parked_changes'),
    budgets: syncDb.collection<{ _id: string; grants?: { at: number; n: number }[]; searchGrants?: { at: number; n: number }[] }>('crm_budgets'),
    /** MongoDB commands the server ran so far (serverStatus opcounters), less the bench's own; null when it does not count them. */
    async dbOperations(): Promise<number | null> {
      const status = await connection.db!.admin().command({ serverStatus: 1 });
      const counters = status.opcounters as Record<string, number> | undefined;
      return counters ? Object.values(counters).reduce((sum, n) => sum + Number(n), 0) - own : null;
    },
    close: () => connection.close(),
  };
}
type Observer = Awaited<ReturnType<typeof observer>>;
type CrmProxy = Awaited<ReturnType<typeof startCrmProxy>>;

async function appliedCount(db: Observer, portal: TestPortal, objectType?: BenchObjectType): Promise<number> {
  return db.syncs.countDocuments({ portalId: portal.portalId, ...(objectType ? { objectType } : {}), crmId: { $ne: null } });
}

async function waitApplied(db: Observer, portal: TestPortal, objectType: BenchObjectType, total: number, timeoutMs: number) {
  await waitFor(async () => (await appliedCount(db, portal, objectType)) >= total, {
    timeoutMs,
    intervalMs: 250,
    message: `${total} ${objectType} objects to be applied`,
  });
}

/** Waits until the CRM's count of the account's requests has not moved for a second (associations may follow the status). */
async function crmQuiet(admin: CrmAdminClient, portalId: number): Promise<CrmAccountUsage> {
  let last = await admin.usage(portalId);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await admin.usage(portalId);
    if (now.totals.answered === last.totals.answered) return now;
    last = now;
  }
}

async function portalWithLimits(stack: TestStack, admin: CrmAdminClient, burstPer10s: number, searchPerSecond: number): Promise<TestPortal> {
  const portal = await stack.createPortal();
  // The CRM counts an account's requests only while it has limits (decision 21).
  await admin.setLimits(portal.portalId, { burstPer10s, dailyCap: 1_000_000_000, timeZone: 'UTC', searchPerSecond });
  return portal;
}

/** Step 1 and 2: each type alone, CRM requests and MongoDB commands from before its first send until the CRM is quiet. */
async function measurePerType(stack: TestStack, admin: CrmAdminClient, db: Observer, perType: number) {
  const portal = await portalWithLimits(stack, admin, 1_000_000, 10_000);
  const url = `${stack.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${portal.apiKey}`;
  const make = makers({ CONTACT: perType, PRODUCT: perType, DEAL: perType, LINE_ITEM: perType });
  // Background work (sweeps, waits, polls of every app) counted over 5 idle seconds, to leave out below.
  const idleFrom = await db.dbOperations();
  const idleStarted = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idleRate = idleFrom === null ? null : ((await db.dbOperations())! - idleFrom) / ((Date.now() - idleStarted) / 1000);
  const requestsPer100 = {} as Record<BenchObjectType, number>;
  const dbPer100 = {} as Record<BenchObjectType, number>;
  let dbTotal = 0;
  for (const objectType of OBJECT_TYPES) {
    const requestsBefore = (await admin.usage(portal.portalId)).totals.answered;
    const opsBefore = await db.dbOperations();
    const started = Date.now();
    await send(url, objectType, perType, make[objectType]);
    await waitApplied(db, portal, objectType, perType, 10 * 60_000);
    const requests = (await crmQuiet(admin, portal.portalId)).totals.answered - requestsBefore;
    const opsAfter = await db.dbOperations();
    requestsPer100[objectType] = round((requests / perType) * 100, 2);
    if (opsBefore !== null && idleRate !== null) {
      const ops = opsAfter! - opsBefore - idleRate * ((Date.now() - started) / 1000);
      dbPer100[objectType] = round((ops / perType) * 100);
      dbTotal += ops;
    }
    log(
      `crm-budget: ${perType} ${objectType} alone: ${requests} CRM requests${opsBefore === null ? '' : `, ${dbPer100[objectType]} MongoDB commands per 100`} (${round((Date.now() - started) / 1000)} s)`,
    );
  }
  return {
    requestsPer100,
    dbOperationsPerObject: idleRate === null ? null : round(dbTotal / (perType * OBJECT_TYPES.length), 1),
    dbOperationsPer100: idleRate === null ? null : dbPer100,
    idleDbOperationsPerSecond: idleRate === null ? null : round(idleRate),
  };
}

/** Step 3: the mixed load against 190 per 10 s, the account's limits and the connection's the same, so our budget governs. */
async function measureLimited(stack: TestStack, admin: CrmAdminClient, db: Observer, proxy: CrmProxy, counts: Record<BenchObjectType, number>) {
  const portal = await portalWithLimits(stack, admin, BURST_PER_10S, SEARCH_PER_SECOND);
  await axios.put(
    `${stack.gatewayUrl}/admin/v1/portals/${portal.portalId}/crm-connection`,
    { kind: 'builtin', limits: { burstPer10s: BURST_PER_10S, dailyCap: null, timeZone: 'UTC', searchPerSecond: SEARCH_PER_SECOND } },
    { headers: { authorization: `Bearer ${stack.adminToken}` } },
  );
  const url = `${stack.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${portal.apiKey}`;
  const make = makers(counts);
  const objects = OBJECT_TYPES.reduce((sum, type) => sum + counts[type], 0);
  const timeoutMs = 15 * 60_000;
  const requestsBefore = (await admin.usage(portal.portalId)).totals.answered;
  proxy.reset();
  let peakParked = 0;
  // Permits our budget granted and did not get back, per slot (the newest count of each slot, read while it is in the window).
  const granted = new Map<number, number>();
  const searchGranted = new Map<number, number>();
  const parkedSampler = setInterval(() => {
    void db.parked.countDocuments({ portalId: portal.portalId }).then(
      (n) => (peakParked = Math.max(peakParked, n)),
      () => undefined,
    );
    void db.budgets.findOne({ _id: `builtin:${portal.portalId}` }).then(
      (doc) => {
        // The newest count: a slot's unused permits are handed back after it ends (decision 20, addendum).
        for (const slot of doc?.grants ?? []) granted.set(slot.at, slot.n);
        for (const slot of doc?.searchGrants ?? []) searchGranted.set(slot.at, slot.n);
      },
      () => undefined,
    );
  }, 1000);
  const started = Date.now();
  await Promise.all([send(url, 'CONTACT', counts.CONTACT, make.CONTACT), send(url, 'PRODUCT', counts.PRODUCT, make.PRODUCT)]);
  await send(url, 'DEAL', counts.DEAL, make.DEAL);
  // Line items need their deal and product in the CRM first (as in the end-to-end figure).
  await waitApplied(db, portal, 'DEAL', counts.DEAL, timeoutMs);
  await waitApplied(db, portal, 'PRODUCT', counts.PRODUCT, timeoutMs);
  await send(url, 'LINE_ITEM', counts.LINE_ITEM, make.LINE_ITEM);
  // The end is when the bench first sees every object applied (its CRM id recorded): lastProcessedAt
  // is stamped when a group's apply begins, before its requests wait for the budget.
  await waitFor(async () => (await appliedCount(db, portal)) >= objects, { timeoutMs, intervalMs: 250, message: `${objects} objects to be applied` });
  const finished = Date.now();
  clearInterval(parkedSampler);
  const usage = await crmQuiet(admin, portal.portalId);
  const seconds = (finished - started) / 1000;
  const requests = usage.totals.answered - requestsBefore;
  const requestsPerObject = requests / objects;
  const allowedObjectsPerSecond = BURST_PER_10S / 10 / requestsPerObject;
  const objectsPerSecond = objects / seconds;

  // After the first window of the budget: any rolling limit grants its whole burst at once at the start.
  const firstSecond = Math.min(...usage.perSecond.filter((s) => s.answered > 0).map((s) => s.second));
  const lastSecond = Math.max(...usage.perSecond.map((s) => s.second));
  const bySecond = new Map(usage.perSecond.map((s) => [s.second, s.answered]));
  const crmRequestsPerSecond = Array.from({ length: lastSecond - firstSecond + 1 }, (_, i) => bySecond.get(firstSecond + i) ?? 0);
  // The CRM's requests per second in the whole seconds after the first budget window, until the end, ÷ 19.
  const steadySeconds = crmRequestsPerSecond.slice(BUDGET_WINDOW_MS / 1000, Math.floor(finished / 1000) - firstSecond);
  const steadyRatio = steadySeconds.length >= 10 ? round(steadySeconds.reduce((sum, n) => sum + n, 0) / steadySeconds.length / (BURST_PER_10S / 10), 3) : null;

  const parkings = ['', 'b']
    .flatMap((instance) => stack.logLines('applier', instance))
    .filter((line) => line.portalId === portal.portalId && String(line.msg ?? line.message ?? '').includes('parked until')).length;
  return {
    ratio: round(objectsPerSecond / allowedObjectsPerSecond, 3),
    steadyRatio,
    rateLimitedShare: round(usage.totals.limited / Math.max(1, usage.totals.answered), 4),
    objects,
    counts,
    seconds: round(seconds),
    objectsPerSecond: round(objectsPerSecond),
    requests,
    limited: usage.totals.limited,
    requestsPerObject: round(requestsPerObject, 4),
    allowedObjectsPerSecond: round(allowedObjectsPerSecond),
    maxIn10s: usage.maxIn10s,
    parkings,
    peakParked,
    crmRequestsPerSecond,
    crm: proxy.stats(),
    budgetGranted: [...granted.values()].reduce((sum, n) => sum + n, 0),
    budgetSearchGranted: [...searchGranted.values()].reduce((sum, n) => sum + n, 0),
  };
}

/**
 * `targetSeconds`: how long the limited run should last at the budget (its size follows from the
 * requests per object measured first); `perType`: objects of each type sent alone.
 */
export async function benchCrmBudget({
  perType,
  targetSeconds,
  crmMaxWaitMs,
}: {
  perType: number;
  targetSeconds: number;
  crmMaxWaitMs: number | null;
}): Promise<CrmBudgetFigure> {
  log(
    `crm-budget: ${perType} objects of each type alone, then a mixed load for about ${targetSeconds} s at ${BURST_PER_10S} requests per 10 s with two appliers`,
  );
  const proxy = await startCrmProxy();
  const stack = await TestStack.start({
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REQUESTS: '1000000000',
      CRM_BASE_URL: proxy.url,
      ...(crmMaxWaitMs === null ? {} : { CRM_MAX_WAIT_MS: String(crmMaxWaitMs) }),
    },
  });
  proxy.setTarget(stack.crmUrl);
  const db = await observer(stack);
  try {
    await stack.startApp('applier', 'b');
    const admin = new CrmAdminClient(stack.crmUrl, stack.adminToken);
    const perTypeFigures = await measurePerType(stack, admin, db, perType);
    const requestsPerMixedObject = OBJECT_TYPES.reduce((sum, type) => sum + (MIX[type] * perTypeFigures.requestsPer100[type]) / 100, 0);
    const objects = Math.min(200_000, Math.ceil((targetSeconds * BURST_PER_10S) / 10 / requestsPerMixedObject / 1000) * 1000);
    const counts = Object.fromEntries(OBJECT_TYPES.map((type) => [type, Math.round(objects * MIX[type])])) as Record<BenchObjectType, number>;
    log(`crm-budget: ${JSON.stringify(perTypeFigures)}; limited run: ${objects} objects ${JSON.stringify(counts)}`);
    const limited = await measureLimited(stack, admin, db, proxy, counts);
    return {
      ...limited,
      requestsPer100: perTypeFigures.requestsPer100,
      dbOperationsPerObject: perTypeFigures.dbOperationsPerObject,
      dbOperationsPer100: perTypeFigures.dbOperationsPer100,
      crmMaxWaitMs,
    };
  } finally {
    await db.close();
    await stack.stop();
    await proxy.close();
  }
}

/** The figure's row in the results table. */
export function crmBudgetRow(figure: CrmBudgetFigure): string {
  const per100 = OBJECT_TYPES.map((type) => `${type} ${figure.requestsPer100[type]}`).join(', ');
  return (
    `| CRM budget, objects/s at ${BURST_PER_10S} per 10 s, two appliers (${figure.objects} objects) | ${figure.objectsPerSecond} in ${figure.seconds} s ` +
    `(${figure.requestsPerObject} requests per object; ${figure.limited} of ${figure.requests} answered 429; busiest 10 s ${figure.maxIn10s}; ` +
    `steady ratio ${figure.steadyRatio ?? 'n/a'}; ${figure.parkings} parkings, up to ${figure.peakParked} changes parked; CRM_MAX_WAIT_MS ${figure.crmMaxWaitMs ?? 'default'}; ` +
    `${figure.budgetGranted} permits granted (${figure.budgetSearchGranted} for searches); 429s by policy ${JSON.stringify(figure.crm.limitedByPolicy)}; CRM answers p50 ${figure.crm.latencyMs.p50} ms, p99 ${figure.crm.latencyMs.p99} ms) ` +
    `| ${figure.allowedObjectsPerSecond} (what the budget allows at that cost) | ${figure.ratio} | ≥ 0.9, < 1 % 429 |\n` +
    `| CRM requests per 100 objects, each type alone | ${per100} | | | |\n` +
    `| MongoDB commands per object (all apps) | ${figure.dbOperationsPerObject ?? 'not counted (the server reports no opcounters)'} | | | |`
  );
}

/** `--only crm-budget`: the figure alone, merged into latest.json (the other figures stay as the last whole run left them) and appended to docs/benchmarks.md. */
export function recordCrmBudgetAlone(
  root: string,
  command: string,
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string },
  crmBudget: CrmBudgetFigure,
  sizes: object,
): void {
  log(`crm-budget: ${JSON.stringify(crmBudget)}`);
  const file = path.join(root, 'bench', 'results', 'latest.json');
  const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const date = new Date().toISOString();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ ...previous, crmBudgetRun: { date, command, machine, sizes }, crmBudget }, null, 2)}\n`);
  const table = ['| Figure | Ours | Baseline (same run) | Ratio | Target |', '|---|---|---|---|---|', crmBudgetRow(crmBudget)].join('\n');
  console.log(`\n${table}\n`);
  fs.appendFileSync(
    path.join(root, 'docs', 'benchmarks.md'),
    `\n## ${date}\n\n\`${command}\` on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GiB, Node ${machine.node}\n\n${table}\n`,
  );
}
