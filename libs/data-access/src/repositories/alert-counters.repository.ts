import type { Connection } from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
import type { AlertCounters } from '@ecomm-sync/domain';
import { crmWaitModel } from '../models/crm-wait.model';
import { importModel } from '../models/import.model';
import { objectSyncModel } from '../models/object-sync.model';
import { syncErrorModel } from '../models/sync-error.model';

const HOUR = 60 * 60 * 1000;

/** The failure reasons of an import whose initialization webhook failed for good (webhook-dispatcher's words). */
const WEBHOOK_FAILURE = /^(the receiver at |the webhook target was refused|application .* has no client secret|the receiver's answer is not)/;

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
    const [byType, processedLastHour, erringLastHour, crmRefusals, wait, imports] = await Promise.all([
      this.errors
        .aggregate<{ _id: string; n: number }>([{ $match: { ...owned, status: 'OPEN', ...inStore } }, { $group: { _id: '$type', n: { $sum: 1 } } }])
        .toArray(),
      needs.processedLastHour ? this.syncs.countDocuments({ ...owned, ...inStore, lastProcessedAt: { $gte: now - HOUR } }) : Promise.resolve(0),
      needs.processedLastHour ? this.erringSince(owned, inStore, now - HOUR) : Promise.resolve({ any: 0, byType: {} }),
      this.errors.countDocuments({ ...owned, status: 'OPEN', 'crm.status': { $in: [401, 403] } }),
      this.waits.findOne({ _id: tenant.portalId as never }, { projection: { reason: 1, since: 1 } }),
      tenant.appId === null
        ? Promise.resolve([])
        : this.imports
            .find(
              // Failed in the last hour, however long it ran; one failed before the failure time was stored, by when it started.
              { ...owned, status: 'failed', $or: [{ failedAt: { $gte: now - HOUR } }, { failedAt: null, createdAt: { $gte: now - HOUR } }] },
              { projection: { _id: 0, failureReason: 1 } },
            )
            .toArray(),
    ]);
    // A wait stays stored until its parked work is applied: between two tries (until passed) it is still a wait.
    const waiting = wait ? { reason: wait.reason as 'rate-limited' | 'daily-cap' | 'unreachable', since: Number(wait.since) } : null;
    return {
      now,
      openErrors: Object.fromEntries(byType.map(({ _id, n }) => [_id, n])),
      processedLastHour,
      erringLastHour,
      crmRefusals,
      crmWait: waiting,
      failedImports: imports.length,
      failedWebhooks: imports.filter((doc) => WEBHOOK_FAILURE.test(String(doc.failureReason ?? ''))).length,
    };
  }

  /**
   * Objects with an open error that errored since `since`, of any type (each object once) and by
   * type: the share rule's numerator, of the same population as its denominator (objects processed
   * since then). Served by the errors' {portalId, appId, status, erroredAt} index.
   */
  private async erringSince(
    owned: { portalId: number; appId: string | null },
    inStore: { storeId?: string },
    since: number,
  ): Promise<{ any: number; byType: Record<string, number> }> {
    const match = { $match: { ...owned, status: 'OPEN', erroredAt: { $gte: since }, ...inStore } };
    const object = { store: '$storeId', type: '$objectType', id: '$externalObjectId' };
    const [byType, any] = await Promise.all([
      this.errors
        .aggregate<{ _id: string; n: number }>([match, { $group: { _id: { ...object, error: '$type' } } }, { $group: { _id: '$_id.error', n: { $sum: 1 } } }])
        .toArray(),
      this.errors.aggregate<{ n: number }>([match, { $group: { _id: object } }, { $group: { _id: null, n: { $sum: 1 } } }]).toArray(),
    ]);
    return { any: any[0]?.n ?? 0, byType: Object.fromEntries(byType.map(({ _id, n }) => [_id, n])) };
  }
}
