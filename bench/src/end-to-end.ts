/**
 * The end-to-end figure: a mixed load through every app until each object is applied in the
 * built-in CRM, against the database driver's bulkWrite upserts of as many documents; then two
 * passes that change every object, for memory growth once warmed up.
 */
import mongoose from 'mongoose';
import { type AppName, testInfrastructure, type TestPortal, TestStack } from '@ecomm-sync/testing';
import { benchConfig } from './config';
import { BATCH, send as sendObjects, type MakeObject } from './load';
import { SIZES, log } from './options';
import { databaseWork, databaseWorkNote } from './database-work';
import { cpuSeconds, memorySampler } from './process-stats';
import { percentile, round } from './stats';
import { syncWatch } from './sync-watch';

/** Set by `npm run bench -- --profile`: the end-to-end run's apps write CPU profiles there. */
const profileDir = benchConfig.BENCH_PROFILE_DIR;

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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `env`: more environment for every app (the request-log figure switches CRM_REQUEST_LOG with it). */
export async function benchEndToEnd(env: Record<string, string> = {}) {
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
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_REQUESTS: '1000000000', ...env },
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
    const database = await databaseWork(stack.name);
    const cpuAtStart = Object.fromEntries(Object.entries(cpuPids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    const send = (objectType: string, total: number, make: MakeObject) =>
      sendObjects(url, objectType, total, make, (b, at) => submittedAt.set(`${objectType}:${b}`, at));
    const { applied, processedSince } = syncWatch(syncs, portal);
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
    const databaseFirstPass = await database.done(n);

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
      await processedSince(passStarted, { ...counts, LINE_ITEM: lineItems }, `objects to be updated by pass ${rev}`);
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
      database: databaseFirstPass,
      memory: memoryByApp,
    };
  } finally {
    await stack.stop();
  }
}

export type EndToEndFigure = Awaited<ReturnType<typeof benchEndToEnd>>;

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value}`;

/** The figure's rows in the results table. */
export function endToEndRows(e2e: EndToEndFigure): string[] {
  return [
    `| End to end, objects/s (${e2e.objects} objects) | ${e2e.objectsPerSecond} (p50 ${e2e.p50Ms} ms, p99 ${e2e.p99Ms} ms) | ${e2e.baselineObjectsPerSecond} (driver bulkWrite upserts, median of ${e2e.baselineRuns.join(', ')}) | ${e2e.ratio} | ≥ 0.25 |`,
    `| End to end, updates (pass 3: every object changed) | ${e2e.updatesPerSecond} | | | |`,
  ];
}

/** Memory and CPU of the run, as sentences below the table. */
export function endToEndNotes(e2e: EndToEndFigure): string[] {
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
  return [
    `Resident memory during the end-to-end run: ${memoryLines}.`,
    `CPU during the end-to-end run (${e2e.wallSeconds} s of wall time): ${cpuLine}.`,
    ...databaseWorkNote(e2e.database),
  ];
}
