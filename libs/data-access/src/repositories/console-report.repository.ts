import type { Connection } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { objectSyncModel } from '../models/object-sync.model';

/** The CRM objects one store of one tenant has linked, for the reporting page (read through the portal's CRM). */
export class ConsoleReportRepository {
  private readonly syncs;

  constructor(connection: Connection) {
    this.syncs = objectSyncModel(connection).collection;
  }

  /** The CRM ids of the store's live objects of a type, at most `limit` (by CRM id); `more` when there are others. */
  async crmIds(tenant: Tenant, storeId: string, objectType: ObjectType, limit: number): Promise<{ ids: number[]; more: boolean }> {
    const docs = await this.syncs
      .find({ portalId: tenant.portalId, appId: tenant.appId ?? null, storeId, objectType, crmId: { $ne: null }, archived: { $ne: true } }, { projection: { _id: 0, crmId: 1 } })
      .sort({ crmId: 1 })
      .limit(limit + 1)
      .toArray();
    const ids = docs.map((doc) => Number(doc.crmId));
    return { ids: ids.slice(0, limit), more: ids.length > limit };
  }
}
