/**
 * The CRM budget figure (issue 13): CRM requests and MongoDB operations per object, one object type
 * at a time on a portal whose CRM refuses nothing; then the throughput of two appliers against a
 * built-in CRM account limited to 190 requests per 10 s, as a ratio to what that budget allows at
 * the requests per object measured in the same run.
 */
import { CrmAdminClient } from '@ecomm-sync/crm-client';
import type { CrmProxyStats } from './crm-proxy';
import { startCrmProxy } from './crm-proxy';
import { log, startStack } from './options';
import { measureLimited } from './crm-budget-limited';
import { measurePerType } from './crm-budget-per-type';
import { BURST_PER_10S, intakeQuiet, MIX, OBJECT_TYPES, observer, type BenchObjectType } from './crm-budget-shared';

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
  /**
   * The budget's database work per CRM request in the limited run (every app): updates of the
   * budget, version claims (one per write tried, lost races included) and reads; null when the
   * server does not count commands per collection.
   */
  budgetWork: { updatesPerRequest: number; claimsPerRequest: number; readsPerRequest: number } | null;
  /** Permits our budget granted in the limited run (searches included), and search permits: more than the requests sent means permits dropped unused. */
  budgetGranted: number;
  budgetSearchGranted: number;
  /** What the apps' CRM requests met in the limited run, seen by a proxy in front of the CRM. */
  crm: CrmProxyStats;
  /** The appliers' CRM_MAX_WAIT_MS: null, their default (`--crm-max-wait-ms` sets it). */
  crmMaxWaitMs: number | null;
  /** The appliers' APPLIER_RESUME_PATIENCE_MS: null, their default (`--resume-patience-ms` sets it). */
  resumePatienceMs: number | null;
  /** How much longer the proxy held each CRM answer (`--crm-latency-ms`; null: not at all). */
  crmLatencyMs: number | null;
  /** The appliers' CRM_CHUNKS_AT_ONCE: null, their default (`--chunks-at-once` sets it). */
  chunksAtOnce: number | null;
}

/**
 * `targetSeconds`: how long the limited run should last at the budget (its size follows from the
 * requests per object measured first); `perType`: objects of each type sent alone.
 */
export async function benchCrmBudget({
  perType,
  targetSeconds,
  crmMaxWaitMs,
  resumePatienceMs,
  crmLatencyMs,
  chunksAtOnce,
  env = {},
}: {
  perType: number;
  targetSeconds: number;
  crmMaxWaitMs: number | null;
  resumePatienceMs: number | null;
  crmLatencyMs: number | null;
  chunksAtOnce: number | null;
  /** More environment for every app (the request-log figure switches CRM_REQUEST_LOG with it). */
  env?: Record<string, string>;
}): Promise<CrmBudgetFigure> {
  log(
    `crm-budget: ${perType} objects of each type alone, then a mixed load for about ${targetSeconds} s at ${BURST_PER_10S} requests per 10 s with two appliers`,
  );
  const proxy = await startCrmProxy(crmLatencyMs ?? 0);
  const stack = await startStack({
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_REQUESTS: '1000000000',
      CRM_BASE_URL: proxy.url,
      ...(crmMaxWaitMs === null ? {} : { CRM_MAX_WAIT_MS: String(crmMaxWaitMs) }),
      ...(resumePatienceMs === null ? {} : { APPLIER_RESUME_PATIENCE_MS: String(resumePatienceMs) }),
      ...(chunksAtOnce === null ? {} : { CRM_CHUNKS_AT_ONCE: String(chunksAtOnce) }),
      ...env,
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
    await intakeQuiet(db);
    const limited = await measureLimited(stack, admin, db, proxy, counts);
    return {
      ...limited,
      requestsPer100: perTypeFigures.requestsPer100,
      dbOperationsPerObject: perTypeFigures.dbOperationsPerObject,
      dbOperationsPer100: perTypeFigures.dbOperationsPer100,
      crmMaxWaitMs,
      resumePatienceMs,
      crmLatencyMs,
      chunksAtOnce,
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
    `steady ratio ${figure.steadyRatio ?? 'n/a'}; ${figure.parkings} parkings, up to ${figure.peakParked} changes parked; CRM_MAX_WAIT_MS ${figure.crmMaxWaitMs ?? 'default'}; APPLIER_RESUME_PATIENCE_MS ${figure.resumePatienceMs ?? 'default'}; ` +
    `CRM_CHUNKS_AT_ONCE ${figure.chunksAtOnce ?? 'default'}; ${figure.crmLatencyMs ? `each CRM answer held ${figure.crmLatencyMs} ms more; ` : ''}` +
    `${figure.budgetGranted} permits granted (${figure.budgetSearchGranted} for searches); ` +
    `${figure.budgetWork ? `budget per request: ${figure.budgetWork.updatesPerRequest} updates, ${figure.budgetWork.claimsPerRequest} version claims, ${figure.budgetWork.readsPerRequest} reads; ` : ''}` +
    `429s by policy ${JSON.stringify(figure.crm.limitedByPolicy)}; CRM answers p50 ${figure.crm.latencyMs.p50} ms, p99 ${figure.crm.latencyMs.p99} ms) ` +
    `| ${figure.allowedObjectsPerSecond} (what the budget allows at that cost) | ${figure.ratio} | ≥ 0.95, no 429 |\n` +
    `| CRM requests per 100 objects, each type alone | ${per100} | | | |\n` +
    `| MongoDB commands per object (all apps) | ${figure.dbOperationsPerObject ?? 'not counted (the server reports no opcounters)'} | | | |`
  );
}
