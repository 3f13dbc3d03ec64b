import type { Connection } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { type AlertCounters, type CrmWaitReason, type ImportState, releaseStalled } from '@ecomm-sync/domain';
import { crmWaitModel } from '../models/crm-wait.model';
import { importModel } from '../models/import.model';
import { objectSyncModel } from '../models/object-sync.model';
import { syncErrorModel } from '../models/sync-error.model';
import { findIn } from '../find-in';
import { keyString } from '../object-key';

const HOUR = 60 * 60 * 1000;
const NO_ERRING = { any: 0, byType: {} };

/** The failure reasons of an import whose initialization webhook failed for good (webhook-dispatcher's words). */
const WEBHOOK_FAILURE = /^(the receiver at |the webhook target was refused|application .* has no client secret|the receiver's answer is not)/;

/**
 * An import still unreleased whose release has failed long enough in a row (the domain's rule), the
 * last failure within the hour: an import matched for its webhook may carry an older problem, and
 * one released by a replica older than the problem field may carry a stale one.
 */
function stalledNow(doc: Record<string, unknown>, now: number): boolean {
  const problem = (doc.releaseProblem ?? null) as ImportState['releaseProblem'];
  return doc.status === 'complete' && doc.releasedAt == null && problem !== null && problem.at >= now - HOUR && releaseStalled(problem);
}

/** Which counters a tenant's rules need: the share's denominator only when a share rule asks for it. */
export interface CounterNeeds {
  processedLastHour: boolean;
}

/** The counters but the sync lag, which the evaluator reads apart (ObjectStateRepository.oldestUnapplied) and only for lag rules. */
export type TenantAlertCounters = Omit<AlertCounters, 'oldestUnappliedAt'>;

/**
 * What the alert evaluator reads for one tenant (and store), once per evaluation: counts served by
 * the collections' existing indexes (sync_errors by portal, app and status; crm_waits by portal;
 * imports by portal and app). Only the share of processed objects counts object_syncs of the
 * tenant without an index of its own (decision 0053).
 */
export class AlertCountersRepository {
  private readonly errors;
  private readonly syncs;
  private readonly waits;
  private readonly imports;

  constructor(connection: Connection) {
    this.errors = syncErrorModel(connection).collection;
    this.syncs = objectSyncModel(connection).collection;
    this.waits = crmWaitModel(connection).collection;
    this.imports = importModel(connection).collection;
  }

  async read(tenant: Tenant, storeId: string | null, now: number, needs: CounterNeeds): Promise<TenantAlertCounters> {
    const owned = { portalId: tenant.portalId, appId: tenant.appId };
    const inStore = storeId === null ? {} : { storeId };
    const [byType, share, crmRefusals, wait, imports] = await Promise.all([
      this.errors
        .aggregate<{ _id: string; n: number }>([{ $match: { ...owned, status: 'OPEN', ...inStore } }, { $group: { _id: '$type', n: { $sum: 1 } } }])
        .toArray(),
      needs.processedLastHour ? this.share(owned, inStore, now - HOUR) : Promise.resolve({ processed: 0, erring: NO_ERRING }),
      this.errors.countDocuments({ ...owned, status: 'OPEN', 'crm.status': { $in: [401, 403] } }),
      this.waits.findOne({ _id: tenant.portalId as never }, { projection: { reason: 1, since: 1 } }),
      tenant.appId === null
        ? Promise.resolve([])
        : this.imports
            .find(
              // Failed in the last hour, however long it ran (one failed before the failure time was
              // stored: by when it started); or its release kept failing; or its webhook failed after
              // pages arrived (it went on).
              {
                ...owned,
                $or: [
                  { status: 'failed', failedAt: { $gte: now - HOUR } },
                  { status: 'failed', failedAt: null, createdAt: { $gte: now - HOUR } },
                  { 'webhookProblem.at': { $gte: now - HOUR } },
                  { status: 'complete', releasedAt: null, 'releaseProblem.at': { $gte: now - HOUR } },
                ],
              },
              { projection: { _id: 0, status: 1, failureReason: 1, webhookProblem: 1, releaseProblem: 1, releasedAt: 1 } },
            )
            .toArray(),
    ]);
    // A wait stays stored until its parked work is applied: between two tries (until passed) it is still a wait.
    const waiting = wait ? { reason: wait.reason as CrmWaitReason, since: Number(wait.since) } : null;
    return {
      now,
      openErrors: Object.fromEntries(byType.map(({ _id, n }) => [_id, n])),
      processedLastHour: share.processed,
      erringLastHour: share.erring,
      crmRefusals,
      crmWait: waiting,
      failedImports: imports.filter((doc) => doc.status === 'failed' || stalledNow(doc, now)).length,
      failedWebhooks: imports.filter((doc) =>
        doc.status === 'failed' ? WEBHOOK_FAILURE.test(String(doc.failureReason ?? '')) : doc.webhookProblem && doc.webhookProblem.at >= now - HOUR,
      ).length,
    };
  }

  /** The share's denominator, objects processed since `since`, and its numerator, read only when something was processed. */
  private async share(
    owned: { portalId: number; appId: string | null },
    inStore: { storeId?: string },
    since: number,
  ): Promise<{ processed: number; erring: TenantAlertCounters['erringLastHour'] }> {
    const processed = await this.syncs.countDocuments({ ...owned, ...inStore, lastProcessedAt: { $gte: since } });
    return { processed, erring: processed === 0 ? NO_ERRING : await this.erringSince(owned, inStore, since) };
  }

  /**
   * Of the objects processed since `since` (the share's denominator), those with an open error, of
   * any type (each object once) and by type: the share rule's numerator, of the same population.
   * The tenant's open errors are grouped by object (the errors' {portalId, appId, status} index),
   * then their links read by _id for when each was last processed. A change that waits has an open
   * error but was not processed: it is not counted. Nor is the error of a batch set aside, which
   * stays open while later batches of its object are processed (decision 59): it says a batch waits
   * in a dead-letter queue, which the open-errors count shows, not that processing fails.
   */
  private async erringSince(
    owned: { portalId: number; appId: string | null },
    inStore: { storeId?: string },
    since: number,
  ): Promise<{ any: number; byType: Record<string, number> }> {
    const objects = await this.errors
      .aggregate<{ _id: { storeId: string; objectType: ObjectType; externalObjectId: string }; types: string[] }>([
        { $match: { ...owned, status: 'OPEN', ...inStore, setAsideBatchId: null } },
        { $group: { _id: { storeId: '$storeId', objectType: '$objectType', externalObjectId: '$externalObjectId' }, types: { $addToSet: '$type' } } },
      ])
      .toArray();
    const keyOfObject = ({ _id }: (typeof objects)[number]) => keyString({ ...owned, ..._id });
    const links = await findIn(this.syncs, '_id', objects.map(keyOfObject), { projection: { _id: 1, lastProcessedAt: 1 } });
    const processed = new Set(links.filter((link) => Number(link.lastProcessedAt ?? 0) >= since).map((link) => String(link._id)));
    const erring = objects.filter((object) => processed.has(keyOfObject(object)));
    const byType: Record<string, number> = {};
    for (const { types } of erring) for (const type of types) byType[type] = (byType[type] ?? 0) + 1;
    return { any: erring.length, byType };
  }
}
