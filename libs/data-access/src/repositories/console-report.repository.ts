import type { Connection } from 'mongoose';
import type { ObjectScope } from '@ecomm-sync/contracts';
import { objectSyncModel } from '../models/object-sync.model';
import { rawMessageModel } from '../models/raw-message.model';
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

/** Receive and apply times since a moment, for the overview's chart; at most `limit` of each. */
export class ConsoleActivityRepository {
  private readonly raw;
  private readonly syncs;

  constructor(connection: Connection) {
    this.raw = rawMessageModel(connection).collection;
    this.syncs = objectSyncModel(connection).collection;
  }

  async times(scope: ConsoleScope, since: number, limit: number): Promise<{ received: number[]; applied: number[]; more: boolean }> {
    const match = consoleScopeFilter(scope);
    const [received, applied] = await Promise.all([
      this.raw
        .find({ ...match, receivedAt: { $gte: since } }, { projection: { _id: 0, receivedAt: 1 } })
        .limit(limit + 1)
        .toArray(),
      this.syncs
        .find({ ...match, lastProcessedAt: { $gte: since } }, { projection: { _id: 0, lastProcessedAt: 1 } })
        .limit(limit + 1)
        .toArray(),
    ]);
    return {
      received: received.slice(0, limit).map((doc) => Number(doc.receivedAt)),
      applied: applied.slice(0, limit).map((doc) => Number(doc.lastProcessedAt)),
      more: received.length > limit || applied.length > limit,
    };
  }
}
