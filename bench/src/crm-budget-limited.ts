/** The CRM budget figure, step 3: the mixed load against an account limited to 190 requests per 10 s. */
import type { CrmAdminClient } from '@ecomm-sync/crm-client';
import type { TestStack } from '@ecomm-sync/testing';
import type { startCrmProxy } from './crm-proxy';
import { databaseWork } from './database-work';
import { send } from './load';
import { round } from './stats';
import {
  BUDGET_WINDOW_MS,
  BURST_PER_10S,
  OBJECT_TYPES,
  crmQuiet,
  makers,
  portalLimitedLikeHosted,
  waitApplied,
  waitAppliedFirst,
  type BenchObjectType,
  type Observer,
} from './crm-budget-shared';

type CrmProxy = Awaited<ReturnType<typeof startCrmProxy>>;

/** Step 3: the mixed load against 190 per 10 s, the account's limits and the connection's the same, so our budget governs. */
export async function measureLimited(stack: TestStack, admin: CrmAdminClient, db: Observer, proxy: CrmProxy, counts: Record<BenchObjectType, number>) {
  const portal = await portalLimitedLikeHosted(stack, admin);
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
  const database = await databaseWork(stack.name);
  const started = Date.now();
  await Promise.all([send(url, 'CONTACT', counts.CONTACT, make.CONTACT), send(url, 'PRODUCT', counts.PRODUCT, make.PRODUCT)]);
  await send(url, 'DEAL', counts.DEAL, make.DEAL);
  // Line items need their deal and product in the CRM first (as in the end-to-end figure): line
  // item i refers to deal i mod DEAL and product i mod PRODUCT, so the first min(LINE_ITEM, DEAL)
  // deals and min(LINE_ITEM, PRODUCT) products. The rest of the deals go on being applied meanwhile,
  // as a shop's later orders would: waiting for all of them left the budget idle for 3–4 s between
  // the last deal and the first line item.
  await waitAppliedFirst(db, portal, 'DEAL', Math.min(counts.LINE_ITEM, counts.DEAL), timeoutMs);
  await waitAppliedFirst(db, portal, 'PRODUCT', Math.min(counts.LINE_ITEM, counts.PRODUCT), timeoutMs);
  await send(url, 'LINE_ITEM', counts.LINE_ITEM, make.LINE_ITEM);
  // The end is when the bench first sees every object applied (its CRM id recorded): lastProcessedAt
  // is stamped when a group's apply begins, before its requests wait for the budget.
  await Promise.all(OBJECT_TYPES.map((objectType) => waitApplied(db, portal, objectType, counts[objectType], timeoutMs)));
  const finished = Date.now();
  clearInterval(parkedSampler);
  // The budget's writes (a lease, a hand-back or a correction: a version claimed, then the budget
  // updated; a lost race claims and writes nothing more) and its reads. The bench's own sampler
  // reads the budget once a second: those are left out.
  const budgetUpdates = await database.commands(/^sync\.crm_budgets update$/);
  const budgetClaims = await database.commands(/^sync\.crm_budget_versions insert$/);
  const budgetReads = await database.commands(/^sync\.crm_budgets find$/);
  const usage = await crmQuiet(admin, portal.portalId);
  const seconds = (finished - started) / 1000;
  const samplerReads = Math.floor(seconds);
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
    budgetWork:
      budgetUpdates === null || budgetClaims === null || budgetReads === null
        ? null
        : {
            updatesPerRequest: round(budgetUpdates / Math.max(1, requests), 2),
            claimsPerRequest: round(budgetClaims / Math.max(1, requests), 2),
            readsPerRequest: round(Math.max(0, budgetReads - samplerReads) / Math.max(1, requests), 2),
          },
    budgetGranted: [...granted.values()].reduce((sum, n) => sum + n, 0),
    budgetSearchGranted: [...searchGranted.values()].reduce((sum, n) => sum + n, 0),
  };
}
