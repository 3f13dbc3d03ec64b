/**
 * The fairness figure (issue 27): while portal A floods the service (its CRM connection limited to
 * 190 requests per 10 s, as a real account is), how long does portal B's trickle of single objects
 * wait from acceptance until applied? Measured against B alone on the same stack just before.
 * With two gateways (`--only fairness-replicas`), each submission of A and of B goes to the replicas
 * in turn, as a load balancer in front of them would spread them: the intake pace that holds A's
 * flood is shared by the replicas (decision 57, addenda of 2026-11-28 and 2026-12-02), the lanes'
 * shares are each replica's own (decision 45).
 */
import { CrmAdminClient } from '@ecomm-sync/crm-client';
import { keyString } from '@ecomm-sync/data-access';
import type { TestPortal } from '@ecomm-sync/testing';
import { BATCH, submission } from './load';
import { log, startStack } from './options';
import { percentile, pool, round } from './stats';
import { observer, portalLimitedLikeHosted, portalWithLimits, type Observer } from './crm-budget-shared';

/** B sends one object every 100 ms: 10 a second. */
const TRICKLE_INTERVAL_MS = 100;
const FLOOD_CLIENTS = 4;

export interface Latencies {
  objects: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The longest latency of the objects accepted in each 5 s of the run: where the tail sits. */
  maxMsBy5s: number[];
}

export interface FairnessFigure {
  /** Gateway replicas: 1, or 2 with A's and B's submissions sent to each in turn. */
  gateways: number;
  /** B's latencies (acceptance → applied) while A floods. */
  withFlood: Latencies;
  /** B's latencies alone, the baseline. */
  alone: Latencies;
  /** withFlood.p99Ms ÷ alone.p99Ms. */
  ratio: number;
  flood: {
    objects: number;
    /** Seconds until the gateway had accepted all of A's objects. */
    acceptedSeconds: number;
    /** Seconds until all of A's objects were applied. */
    appliedSeconds: number;
    /** Answers 429 the gateway gave A's submissions (each retried after its Retry-After). */
    refused: number;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const urlOf = (gatewayUrl: string, portal: TestPortal) => `${gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${portal.apiKey}`;

/**
 * PUTs one submission; a 429 is waited out (Retry-After) and sent again, to the same replica (a load
 * balancer might choose another; the shared pace answers alike). Returns when accepted, with the refusals met.
 */
async function putUntilAccepted(url: string, body: string): Promise<{ acceptedAt: number; refused: number }> {
  for (let refused = 0; ; refused++) {
    const response = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
    await response.arrayBuffer();
    if (response.status === 204) return { acceptedAt: Date.now(), refused };
    if (response.status !== 429) throw new Error(`PUT answered ${response.status}`);
    await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000);
  }
}

/**
 * B's trickle: one contact every 100 ms for `seconds`; each object's latency is from its acceptance
 * (the 204) until the applier recorded it applied (its status's `lastProcessedAt`). Until
 * 2026-11-28 it ended when the bench saw the CRM id: the bench's own polls, in the process that
 * also sends A's flood, came 0.2–1 s late beside the flood, and that lag was counted as B's wait.
 */
async function trickle(db: Observer, urls: string[], portal: TestPortal, prefix: string, seconds: number): Promise<Latencies> {
  const accepted = new Map<string, number>();
  const latencies: number[] = [];
  const started = Date.now();
  const maxBy5s: number[] = [];
  let sending = true;
  const watcher = (async () => {
    while (sending || accepted.size > 0) {
      if (accepted.size > 0) {
        // By `_id`, an index lookup: a filter on the portal and ids scanned all of A's statuses every 50 ms (sync-watch.ts).
        const ids = [...accepted.keys()].map((id) =>
          keyString({ portalId: portal.portalId, appId: null, storeId: 'default', objectType: 'CONTACT', externalObjectId: id }),
        );
        const docs = await db.syncs.find({ _id: { $in: ids }, crmId: { $ne: null } }, { projection: { externalObjectId: 1, lastProcessedAt: 1 } }).toArray();
        for (const doc of docs) {
          const acceptedAt = accepted.get(String(doc.externalObjectId))!;
          const latency = Math.max(0, Number(doc.lastProcessedAt) - acceptedAt);
          const window = Math.floor((acceptedAt - started) / 5000);
          maxBy5s[window] = Math.max(maxBy5s[window] ?? 0, latency);
          latencies.push(latency);
          accepted.delete(String(doc.externalObjectId));
        }
      }
      await sleep(50);
    }
  })();
  const until = Date.now() + seconds * 1000;
  const sends: Promise<void>[] = [];
  for (let n = 0; Date.now() < until; n++) {
    const body = submission('CONTACT', n, 1, (i) => ({ properties: { email: `${prefix}-${i}@example.com`, firstname: `B ${i}`, lastname: 'Fairness' } }));
    body.messages[0].externalObjectId = `${prefix}-${n}`;
    const id = body.messages[0].externalObjectId;
    sends.push(putUntilAccepted(urls[n % urls.length], JSON.stringify(body)).then(({ acceptedAt }) => void accepted.set(id, acceptedAt)));
    await sleep(TRICKLE_INTERVAL_MS);
  }
  await Promise.all(sends);
  sending = false;
  await watcher;
  latencies.sort((a, b) => a - b);
  return {
    objects: latencies.length,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies[latencies.length - 1]),
    maxMsBy5s: Array.from(maxBy5s, (ms) => ms ?? 0),
  };
}

/** A's flood: `objects` contacts and products (4 to 1) in submissions of 200, as fast as the gateway takes them. */
async function flood(urls: string[], objects: number): Promise<{ acceptedSeconds: number; refused: number }> {
  const started = Date.now();
  const submissions = Math.ceil(objects / BATCH);
  let refused = 0;
  await pool(submissions, FLOOD_CLIENTS, async (b) => {
    const count = Math.min(BATCH, objects - b * BATCH);
    const body =
      b % 5 === 4
        ? submission('PRODUCT', b * BATCH, count, (i) => ({ properties: { name: `Flood product ${i}`, price: (i % 100) + 0.5 } }))
        : submission('CONTACT', b * BATCH, count, (i) => ({ properties: { email: `flood-${i}@example.com`, firstname: `A ${i}`, lastname: 'Flood' } }));
    refused += (await putUntilAccepted(urls[b % urls.length], JSON.stringify(body))).refused;
  });
  return { acceptedSeconds: round((Date.now() - started) / 1000), refused };
}

export async function benchFairness({
  floodObjects,
  trickleSeconds,
  gateways = 1,
}: {
  floodObjects: number;
  trickleSeconds: number;
  gateways?: 1 | 2;
}): Promise<FairnessFigure> {
  const through = gateways === 2 ? ', both spread over two gateway replicas' : '';
  log(`fairness: portal B alone for ${trickleSeconds} s, then B beside portal A's flood of ${floodObjects} objects at 190 CRM requests per 10 s${through}`);
  const stack = await startStack({ env: { LOG_LEVEL: 'warn' } });
  const db = await observer(stack);
  try {
    if (gateways === 2) await stack.startApp('gateway', 'b');
    const admin = new CrmAdminClient(stack.crmUrl, stack.adminToken);
    const portalA = await portalLimitedLikeHosted(stack, admin);
    const portalB = await portalWithLimits(stack, admin, 1_000_000, 10_000);
    const gatewayUrls = gateways === 2 ? [stack.gatewayUrl, stack.urlOf('gateway', 'b')] : [stack.gatewayUrl];
    const floodUrls = gatewayUrls.map((url) => urlOf(url, portalA));
    const trickleUrls = gatewayUrls.map((url) => urlOf(url, portalB));
    // Warm-up: the first object of a portal loads its settings and CRM setup.
    await trickle(db, trickleUrls, portalB, 'warm', 1);
    const alone = await trickle(db, trickleUrls, portalB, 'alone', trickleSeconds);
    log(`fairness: B alone ${JSON.stringify(alone)}`);
    const started = Date.now();
    const [floodRun, withFlood] = await Promise.all([flood(floodUrls, floodObjects), trickle(db, trickleUrls, portalB, 'beside', trickleSeconds)]);
    log(`fairness: B beside A's flood ${JSON.stringify(withFlood)}; A accepted in ${floodRun.acceptedSeconds} s (${floodRun.refused} answers 429)`);
    await waitApplied(db, portalA, floodObjects);
    return {
      gateways,
      withFlood,
      alone,
      ratio: round(withFlood.p99Ms / alone.p99Ms, 2),
      flood: { objects: floodObjects, ...floodRun, appliedSeconds: round((Date.now() - started) / 1000) },
    };
  } finally {
    await db.close();
    await stack.stop();
  }
}

async function waitApplied(db: Observer, portal: TestPortal, objects: number): Promise<void> {
  const deadline = Date.now() + 15 * 60_000;
  while ((await db.syncs.countDocuments({ portalId: portal.portalId, crmId: { $ne: null } })) < objects) {
    if (Date.now() > deadline) throw new Error(`portal A's ${objects} objects were not applied in 15 minutes`);
    await sleep(500);
  }
}

/** The figure's row in the results table. */
export function fairnessRow(figure: FairnessFigure): string {
  const { withFlood: w, alone: a, flood: f } = figure;
  return (
    `| Fairness: B's time from accepted to applied (10 objects/s) while A sends ${f.objects} objects at 190 CRM requests per 10 s` +
    `${figure.gateways === 2 ? ', A and B spread over two gateway replicas' : ''} ` +
    `| p50 ${w.p50Ms} ms, p99 ${w.p99Ms} ms, max ${w.maxMs} ms (${w.objects} objects; A accepted in ${f.acceptedSeconds} s, ${f.refused} answers 429, applied in ${f.appliedSeconds} s) ` +
    `| B alone: p50 ${a.p50Ms} ms, p99 ${a.p99Ms} ms, max ${a.maxMs} ms | ${figure.ratio} | p99 < 5 s and ≤ 2 |`
  );
}
