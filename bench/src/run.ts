/**
 * npm run bench [-- --quick]: figures of the running service against baselines measured in the
 * same run on the same machine. Prints a table, writes bench/results/latest.json and appends the
 * run to docs/benchmarks.md.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { DEMO_MAPPINGS } from '@ecomm-sync/provisioning';
import { TestStack, type AppName, type TestPortal } from '@ecomm-sync/test-harness';
import { testInfrastructure, waitFor } from '@ecomm-sync/testing';
import { benchCrmBudget, crmBudgetRow, recordCrmBudgetAlone } from './crm-budget';
import { benchConfig } from './config';
import { BATCH, put, send as sendObjects, submission, type MakeObject } from './load';
import { benchObservability, observabilityRow } from './observability';
import { percentile, pool, round } from './stats';

const root = path.resolve(__dirname, '..', '..');
const quick = process.argv.includes('--quick');
/** `--only e2e` (or ingest, reapply, observability) runs one figure and records nothing: for profiling a change; `--only crm-budget` records its figure alone. */
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '') : null;
const SIZES = quick
  ? { ingestRequests: 150, e2eObjects: 20_000, reapplyObjects: 20_000, crmBudget: { perType: 1_000, targetSeconds: 20 } }
  : { ingestRequests: 500, e2eObjects: 100_000, reapplyObjects: 100_000, crmBudget: { perType: 5_000, targetSeconds: 60 } };
/** `--crm-max-wait-ms N`: the appliers' CRM_MAX_WAIT_MS in the CRM budget figure (their default when not given). */
const maxWaitAt = process.argv.indexOf('--crm-max-wait-ms');
const crmMaxWaitMs = maxWaitAt >= 0 ? Number(process.argv[maxWaitAt + 1]) : null;
/** Set by `npm run bench -- --profile`: the end-to-end run's apps write CPU profiles there. */
const profileDir = benchConfig.BENCH_PROFILE_DIR;
const CONCURRENCY = 8;
const log = (message: string) => console.log(`[bench] ${message}`);

const rssMb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
};

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
const cpuSeconds = (pid: number): number => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
};

/** The V8 heap an app kept after its newest full collection, from its --trace-gc output. */
function heapAfterFullGcMb(stack: TestStack, app: AppName): number {
  const collections = [...stack.output(app).matchAll(/Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \(/g)];
  return collections.length > 0 ? Number(collections[collections.length - 1][1]) : NaN;
}

/** Samples the resident memory of the stack's processes: where each started, its peak, and now. */
function memorySampler(stack: TestStack, apps: AppName[]) {
  const samples = new Map<AppName, number[]>(apps.map((app) => [app, []]));
  const sample = () => apps.forEach((app) => samples.get(app)!.push(rssMb(stack.pid(app))));
  sample();
  const timer = setInterval(sample, 250);
  return {
    /** Resident memory now, and the heap kept after the newest full collection. */
    now: () =>
      Object.fromEntries(apps.map((app) => [app, { rssMb: round(rssMb(stack.pid(app))), heapMb: heapAfterFullGcMb(stack, app) }])) as Record<
        AppName,
        { rssMb: number; heapMb: number }
      >,
    stop: () => {
      clearInterval(timer);
      return Object.fromEntries([...samples].map(([app, values]) => [app, { startMb: round(values[0]), peakMb: round(Math.max(...values)) }])) as Record<
        AppName,
        { startMb: number; peakMb: number }
      >;
    },
  };
}

async function measureIngest(url: string, bodies: string[]) {
  await pool(20, CONCURRENCY, (i) => put(url, bodies[i % bodies.length])); // warm-up
  const started = performance.now();
  const latencies = await pool(SIZES.ingestRequests, CONCURRENCY, (i) => put(url, bodies[i % bodies.length]));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    messagesPerSecond: Math.round((SIZES.ingestRequests * BATCH) / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
  };
}

async function startBaselineServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'bench', 'baseline-server.js'), '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout!.on('data', (chunk: Buffer) => resolve(Number(/listening on (\d+)/.exec(chunk.toString())?.[1]))),
  );
  return { url: `http://127.0.0.1:${port}/extensions/ecomm/v2/sync/messages`, stop: () => child.kill('SIGTERM') };
}

async function benchIngest() {
  log(`ingest: ${SIZES.ingestRequests} requests of ${BATCH} messages, ${CONCURRENCY} concurrent clients`);
  const stack = await TestStack.start({ apps: ['crm', 'gateway'], env: { LOG_LEVEL: 'warn', RATE_LIMIT_REQUESTS: '1000000000' } });
  try {
    const portal = await stack.createPortal();
    const bodies = Array.from({ length: 20 }, (_, b) =>
      JSON.stringify(
        submission('CONTACT', b * BATCH, BATCH, (n) => ({ properties: { email: `ingest-${n}@example.com`, firstname: `Name ${n}`, lastname: 'Bench' } })),
      ),
    );
    const baselineServer = await startBaselineServer();
    const baseline = await measureIngest(baselineServer.url, bodies);
    baselineServer.stop();
    const ours = await measureIngest(`${stack.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${portal.apiKey}`, bodies);
    return {
      ...ours,
      baselineMessagesPerSecond: baseline.messagesPerSecond,
      baselineP50Ms: baseline.p50Ms,
      baselineP99Ms: baseline.p99Ms,
      ratio: round(ours.messagesPerSecond / baseline.messagesPerSecond, 2),
    };
  } finally {
    await stack.stop();
  }
}

async function bulkWriteBaseline(count: number, sampleDoc: object) {
  const connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: `bench_baseline_${Date.now()}` }).asPromise();
  try {
    const collection = connection.collection('objects');
    await collection.createIndex({ key: 1 }, { unique: true });
    const started = performance.now();
    for (let from = 0; from < count; from += 1000) {
      await collection.bulkWrite(
        Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({
          updateOne: { filter: { key: `k-${from + i}` }, update: { $set: { ...sampleDoc, n: from + i } }, upsert: true },
        })),
        { ordered: false },
      );
    }
    return Math.round(count / ((performance.now() - started) / 1000));
  } finally {
    await connection.dropDatabase();
    await connection.close();
  }
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value}`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function benchEndToEnd() {
  const n = SIZES.e2eObjects;
  const counts = { CONTACT: Math.round(n * 0.4), PRODUCT: Math.round(n * 0.1), DEAL: Math.round(n * 0.3) };
  const lineItems = n - counts.CONTACT - counts.PRODUCT - counts.DEAL;
  // The baseline first, on the server as ours finds it (empty); the median of three runs.
  const crmDoc = {
    portalId: 1,
    objectType: 'contacts',
    properties: { email: 'e2e-1@example.com', firstname: 'First 1', lastname: 'Bench', ip__ecomm_bridge__ecomm_synced: 'true' },
    archived: false,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  const baselines: number[] = [];
  for (let run = 0; run < 3; run++) baselines.push(await bulkWriteBaseline(n, crmDoc));
  const baselineObjectsPerSecond = median(baselines);
  log(
    `end to end: baseline ${baselines.join(', ')} documents/s; ${n} objects (${counts.CONTACT} contacts, ${counts.PRODUCT} products, ${counts.DEAL} deals, ${lineItems} line items)`,
  );

  const stack = await TestStack.start({
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_REQUESTS: '1000000000' },
    nodeOptions: ['--trace-gc', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
  });
  try {
    const portal: TestPortal = await stack.createPortal();
    const url = `${stack.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${portal.apiKey}`;
    const syncs = await stack.syncCollection('object_syncs');
    const submittedAt = new Map<string, number>();
    const memory = memorySampler(stack, ['gateway', 'mapper', 'applier', 'crm']);
    // Where the time goes: CPU seconds per process over the run, the database server included.
    const cpuPids: Record<string, number> = {
      gateway: stack.pid('gateway'),
      mapper: stack.pid('mapper'),
      applier: stack.pid('applier'),
      crm: stack.pid('crm'),
    };
    if (benchConfig.MONGO_SERVER_PID !== undefined) cpuPids['mongodb-wire server'] = benchConfig.MONGO_SERVER_PID;
    const cpuAtStart = Object.fromEntries(Object.entries(cpuPids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    const send = (objectType: string, total: number, make: MakeObject) =>
      sendObjects(url, objectType, total, make, (b, at) => submittedAt.set(`${objectType}:${b}`, at));
    const processed = async (filter: object, total: number, what: string) =>
      waitFor(async () => (await syncs.countDocuments(filter)) >= total, { timeoutMs: 20 * 60_000, intervalMs: 500, message: `${total} ${what}` });
    const applied = (objectType: string, total: number) => processed({ objectType, crmId: { $ne: null } }, total, `${objectType} objects to be applied`);
    const contact = (version: string) => (i: number) => ({
      properties: { email: `e2e-${i}@example.com`, firstname: `First ${i}${version}`, lastname: 'Bench' },
    });
    const product = (version: string) => (i: number) => ({ properties: { name: `Product ${i}${version}`, price: (i % 100) + 0.5 } });
    const deal = (version: string) => (i: number) => ({
      properties: { dealname: `Order ${i}${version}`, dealstage: 'checkout_completed', amount: i % 500 },
      associations: { CONTACT: [`contact-${i % counts.CONTACT}`] },
    });
    const lineItem = (version: string) => (i: number) => ({
      properties: { quantity: (i % 5) + 1 + (version ? 1 : 0), price: 9.5 },
      associations: { DEAL: [`deal-${i % counts.DEAL}`], PRODUCT: [`product-${i % counts.PRODUCT}`] },
    });

    const started = Date.now();
    await Promise.all([send('CONTACT', counts.CONTACT, contact('')), send('PRODUCT', counts.PRODUCT, product(''))]);
    await send('DEAL', counts.DEAL, deal(''));
    // Line items need their deal and product in the CRM first.
    await applied('DEAL', counts.DEAL);
    await applied('PRODUCT', counts.PRODUCT);
    await send('LINE_ITEM', lineItems, lineItem(''));
    await applied('LINE_ITEM', lineItems);
    await applied('CONTACT', counts.CONTACT);
    const afterFirstPass = memory.now();
    const cpu = Object.fromEntries(Object.entries(cpuPids).map(([name, pid]) => [name, round(cpuSeconds(pid) - cpuAtStart[name])]));

    const docs = await syncs.find({}, { projection: { objectType: 1, externalObjectId: 1, lastProcessedAt: 1 } }).toArray();
    const latencies = docs
      .map((doc) => {
        const index = Number(String(doc.externalObjectId).split('-').pop());
        const sent = submittedAt.get(`${doc.objectType}:${Math.floor(index / BATCH)}`);
        return sent === undefined ? NaN : (doc.lastProcessedAt as number) - sent;
      })
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const finished = Math.max(...docs.map((doc) => doc.lastProcessedAt as number));
    const objectsPerSecond = Math.round(docs.length / ((finished - started) / 1000));

    // Two more passes change every object (CRM updates), the same work twice: memory after the third
    // against after the second shows whether the services grow with the work done once warmed up.
    const updatePass = async (rev: number) => {
      const passStarted = Date.now();
      const version = ` v${rev}`;
      await Promise.all([
        send('CONTACT', counts.CONTACT, contact(version)),
        send('PRODUCT', counts.PRODUCT, product(version)),
        send('DEAL', counts.DEAL, deal(version)),
        send('LINE_ITEM', lineItems, lineItem(version)),
      ]);
      // Revisions follow the clock (nextRevision), so a pass is done when every object was processed after it began.
      await processed({ lastProcessedAt: { $gte: passStarted } }, n, `objects to be updated by pass ${rev}`);
      return { objectsPerSecond: Math.round(n / ((Date.now() - passStarted) / 1000)), memory: memory.now() };
    };
    const second = await updatePass(2);
    const third = await updatePass(3);
    const updatesPerSecond = third.objectsPerSecond;
    const memoryByApp = Object.fromEntries(
      Object.entries(memory.stop()).map(([app, m]) => {
        const [first, warm, last] = [afterFirstPass, second.memory, third.memory].map((pass) => pass[app as AppName]);
        return [
          app,
          {
            ...m,
            afterFirstPassMb: first.rssMb,
            afterSecondPassMb: warm.rssMb,
            afterThirdPassMb: last.rssMb,
            growthMb: round(last.rssMb - warm.rssMb),
            heapAfterFullGcMb: [first.heapMb, warm.heapMb, last.heapMb],
            heapGrowthMb: round(last.heapMb - warm.heapMb),
          },
        ];
      }),
    );
    return {
      objects: docs.length,
      objectsPerSecond,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      baselineObjectsPerSecond,
      baselineRuns: baselines,
      ratio: round(objectsPerSecond / baselineObjectsPerSecond, 3),
      wallSeconds: round((finished - started) / 1000),
      updatesPerSecond,
      cpuSeconds: cpu,
      memory: memoryByApp,
    };
  } finally {
    await stack.stop();
  }
}

async function benchReapply() {
  const n = SIZES.reapplyObjects;
  log(`re-apply: ${n} stored objects after a mapping change (mapper alone)`);
  const stack = await TestStack.start({ apps: ['crm', 'gateway', 'mapper'], env: { LOG_LEVEL: 'warn', RATE_LIMIT_REQUESTS: '1000000000' } });
  try {
    const portal = await stack.createPortal();
    await stack.seedStates(portal, 'CONTACT', n, (i) => ({
      externalObjectId: `r-${i}`,
      properties: { email: `r-${i}@example.com`, phone_number: `+1 555 ${i}` },
    }));
    const pid = stack.pid('mapper');
    let peak = rssMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
    const response = await fetch(`${stack.gatewayUrl}/extensions/ecomm/v2/settings?hapikey=${portal.apiKey}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        enabled: true,
        mappings: {
          DEAL: { properties: DEMO_MAPPINGS.DEAL },
          PRODUCT: { properties: DEMO_MAPPINGS.PRODUCT },
          LINE_ITEM: { properties: DEMO_MAPPINGS.LINE_ITEM },
          CONTACT: { properties: [...DEMO_MAPPINGS.CONTACT, { externalPropertyName: 'phone_number', crmPropertyName: 'mobilephone' }] },
        },
      }),
    });
    if (response.status !== 200) throw new Error(`settings PUT answered ${response.status}`);
    const job = await waitFor(
      async () => {
        const status = (await (await fetch(`${stack.gatewayUrl}/extensions/ecomm/v2/settings/reapply-status?hapikey=${portal.apiKey}`)).json()) as {
          status: string;
          objectsProcessed: number;
          startedAt: number;
          finishedAt: number;
        };
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 20 * 60_000, intervalMs: 250, message: 'the re-apply to complete' },
    );
    clearInterval(sampler);
    return {
      objects: job.objectsProcessed,
      objectsPerSecond: Math.round(job.objectsProcessed / ((job.finishedAt - job.startedAt) / 1000)),
      peakRssMb: round(peak),
    };
  } finally {
    await stack.stop();
  }
}

async function main() {
  const flags = [quick ? '--quick' : '', only !== null ? `--only ${only}` : '', crmMaxWaitMs !== null ? `--crm-max-wait-ms ${crmMaxWaitMs}` : ''];
  const command = `npm run bench -- ${flags.filter(Boolean).join(' ')}`.replace(/ -- $/, '');
  const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGb: round(os.totalmem() / 2 ** 30), node: process.version };
  if (only === 'crm-budget') return recordCrmBudgetAlone(root, command, machine, await benchCrmBudget({ ...SIZES.crmBudget, crmMaxWaitMs }), SIZES.crmBudget);
  if (only !== null) {
    const figures: Record<string, () => Promise<unknown>> = {
      ingest: benchIngest,
      e2e: benchEndToEnd,
      reapply: benchReapply,
      observability: () => benchObservability(measureIngest),
    };
    if (!figures[only]) throw new Error(`--only takes one of ${[...Object.keys(figures), 'crm-budget'].join(', ')}`);
    log(`${only}: ${JSON.stringify(await figures[only]())}`);
    return;
  }
  const ingest = await benchIngest();
  log(`ingest: ${JSON.stringify(ingest)}`);
  const observability = await benchObservability(measureIngest);
  log(`observability: ${JSON.stringify(observability)}`);
  const e2e = await benchEndToEnd();
  log(`e2e: ${JSON.stringify(e2e)}`);
  const reapply = await benchReapply();
  log(`reapply: ${JSON.stringify(reapply)}`);
  const crmBudget = await benchCrmBudget({ ...SIZES.crmBudget, crmMaxWaitMs });
  log(`crm-budget: ${JSON.stringify(crmBudget)}`);
  const result = { date: new Date().toISOString(), command, quick, machine, sizes: SIZES, ingest, observability, e2e, reapply, crmBudget };

  fs.mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench', 'results', 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  const table = [
    '| Figure | Ours | Baseline (same run) | Ratio | Target |',
    '|---|---|---|---|---|',
    `| Ingest, messages/s (${SIZES.ingestRequests} × ${BATCH}, ${CONCURRENCY} clients) | ${ingest.messagesPerSecond} (p50 ${ingest.p50Ms} ms, p99 ${ingest.p99Ms} ms) | ${ingest.baselineMessagesPerSecond} (bare express + ajv) | ${ingest.ratio} | ≥ 0.5, p99 < 100 ms |`,
    observabilityRow(observability, SIZES.ingestRequests),
    `| End to end, objects/s (${e2e.objects} objects) | ${e2e.objectsPerSecond} (p50 ${e2e.p50Ms} ms, p99 ${e2e.p99Ms} ms) | ${e2e.baselineObjectsPerSecond} (driver bulkWrite upserts, median of ${e2e.baselineRuns.join(', ')}) | ${e2e.ratio} | ≥ 0.25 |`,
    `| End to end, updates (pass 3: every object changed) | ${e2e.updatesPerSecond} | | | |`,
    `| Re-apply, objects/s (${reapply.objects} objects) | ${reapply.objectsPerSecond} (mapper peak RSS ${reapply.peakRssMb} MB) | | | |`,
    crmBudgetRow(crmBudget),
  ].join('\n');
  const memoryLines = Object.entries(e2e.memory)
    .map(
      ([app, m]) =>
        `${app} ${m.startMb} → peak ${m.peakMb}; after passes 1, 2, 3: ${m.afterFirstPassMb}, ${m.afterSecondPassMb}, ${m.afterThirdPassMb} MB (${signed(m.growthMb)} from 2 to 3), ` +
        `V8 heap after the newest full collection ${m.heapAfterFullGcMb.join(', ')} MB (${signed(m.heapGrowthMb)})`,
    )
    .join('; ');
  const cpuLine = Object.entries(e2e.cpuSeconds)
    .map(([name, seconds]) => `${name} ${seconds} s`)
    .join('; ');
  console.log(`\n${table}\n\nResident memory during the end-to-end run: ${memoryLines}\nCPU during the end-to-end run (${e2e.wallSeconds} s): ${cpuLine}\n`);
  const entry = `\n## ${result.date}\n\n\`${command}\` on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GiB, Node ${machine.node}\n\n${table}\n\nResident memory during the end-to-end run: ${memoryLines}.\nCPU during the end-to-end run (${e2e.wallSeconds} s of wall time): ${cpuLine}.\n`;
  fs.appendFileSync(path.join(root, 'docs', 'benchmarks.md'), entry);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
