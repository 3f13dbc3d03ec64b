import type { Connection } from 'mongoose';
import type { ObjectScope } from '@ecomm-sync/contracts';
import { objectSyncModel } from '../models/object-sync.model';
import { rawMessageModel } from '../models/raw-message.model';
import { syncErrorModel } from '../models/sync-error.model';
import { keyString, type ObjectKey } from '../object-key';
import { FLAGGED_OBJECTS_LIMIT } from './console-overview.repository';
import { consoleScopeFilter, type ConsoleScope } from './console-scope';

/** The CRM objects one store of one tenant has linked, for the reporting page (read through the portal's CRM). */
export class ConsoleReportRepository {
  private readonly syncs;

  constructor(connection: Connection) {
    this.syncs = objectSyncModel(connection).collection;
  }

  /** The CRM ids of the store's live objects of a type, at most `limit` (by CRM id); `more` when there are others. */
  async crmIds({ tenant, storeId, objectType }: ObjectScope, limit: number): Promise<{ ids: number[]; more: boolean }> {
    const docs = await this.syncs
      .find(
        { portalId: tenant.portalId, appId: tenant.appId ?? null, storeId, objectType, crmId: { $ne: null }, archived: { $ne: true } },
        { projection: { _id: 0, crmId: 1 } },
      )
      .sort({ crmId: 1 })
      .limit(limit + 1)
      .toArray();
    const ids = docs.map((doc) => Number(doc.crmId));
    return { ids: ids.slice(0, limit), more: ids.length > limit };
  }
}

/**
 * Receive and apply times since a moment, for the overview's chart; at most `limit` of each.
 * "Applied" means what the overview's table means: processed into a live CRM object with no open
 * error (a failed processing is not an apply).
 */
export class ConsoleActivityRepository {
  private readonly raw;
  private readonly syncs;
  private readonly errors;

  constructor(connection: Connection) {
    this.raw = rawMessageModel(connection).collection;
    this.syncs = objectSyncModel(connection).collection;
    this.errors = syncErrorModel(connection).collection;
  }

  async times(scope: ConsoleScope, since: number, limit: number): Promise<{ received: number[]; applied: number[]; more: boolean }> {
    const match = consoleScopeFilter(scope);
    const failed = await this.errors
      .aggregate<{ _id: ObjectKey }>([
        { $match: { ...match, status: 'OPEN' } },
        { $group: { _id: { portalId: '$portalId', appId: '$appId', storeId: '$storeId', objectType: '$objectType', externalObjectId: '$externalObjectId' } } },
        { $limit: FLAGGED_OBJECTS_LIMIT },
      ])
      .toArray();
    const failedKeys = failed.map(({ _id }) => keyString({ ..._id, appId: _id.appId ?? null }));
    // object_syncs' _id is the object's key string (keyString), not an ObjectId.
    const appliedFilter: Record<string, unknown> = { ...match, lastProcessedAt: { $gte: since }, crmId: { $ne: null }, archived: { $ne: true } };
    if (failedKeys.length > 0) appliedFilter._id = { $nin: failedKeys };
    const [received, applied] = await Promise.all([
      this.receivedTimes(match, since, limit),
      this.syncs
        .find(appliedFilter, { projection: { _id: 0, lastProcessedAt: 1 } })
        .limit(limit + 1)
        .toArray(),
    ]);
    return {
      received: received.slice(0, limit),
      applied: applied.slice(0, limit).map((doc) => Number(doc.lastProcessedAt)),
      more: received.length > limit || applied.length > limit,
    };
  }

  /**
   * When each message arrived, at most `limit + 1` of them: a batch's document counts each of its
   * messages (`count`; an older document holds one), and the reading stops past the limit so a
   * busy hour never builds millions of numbers.
   */
  private async receivedTimes(match: object, since: number, limit: number): Promise<number[]> {
    const times: number[] = [];
    const cursor = this.raw.find({ ...match, receivedAt: { $gte: since } }, { projection: { _id: 0, receivedAt: 1, count: 1 } }).limit(limit + 1);
    for await (const doc of cursor) {
      const take = Math.min(Number(doc.count ?? 1), limit + 1 - times.length);
      for (let i = 0; i < take; i++) times.push(Number(doc.receivedAt));
      if (times.length > limit) break;
    }
    return times;
  }
}
