import type { Connection } from 'mongoose';
import { DEFAULT_STORE_ID, type Tenant } from '@ecomm-sync/contracts';
import { keyOf } from '@ecomm-sync/domain';
import { storeModel } from '../models/store.model';

export interface Store {
  id: string;
  label: string;
  adminUri?: string;
}

interface StoreDoc {
  storeId: string;
  label: string;
  adminUri: string | null;
}

/** The key `existing` answers a store by: its portal, application and id. */
export const storeKeyOf = (tenant: Tenant, storeId: string): string => keyOf(tenant.portalId, tenant.appId, storeId);

const toStore = (doc: StoreDoc): Store => ({ id: doc.storeId, label: doc.label, ...(doc.adminUri ? { adminUri: doc.adminUri } : {}) });

export class StoreRepository {
  private readonly stores;

  constructor(connection: Connection) {
    this.stores = storeModel(connection);
  }

  async find(tenant: Tenant, storeId: string): Promise<Store | null> {
    const doc = await this.stores.findOne({ portalId: tenant.portalId, appId: tenant.appId, storeId }).lean<StoreDoc>();
    return doc ? toStore(doc) : null;
  }

  async list(tenant: Tenant): Promise<Store[]> {
    const docs = await this.stores.find({ portalId: tenant.portalId, appId: tenant.appId }).sort({ storeId: 1 }).lean<StoreDoc[]>();
    return docs.map(toStore);
  }

  /** Which of these stores exist (`storeKeyOf` each), in one read: a re-apply leaves out the objects of stores deleted since. */
  async existing(stores: readonly { tenant: Tenant; storeId: string }[]): Promise<Set<string>> {
    if (stores.length === 0) return new Set();
    const docs = await this.stores
      .find({ $or: stores.map(({ tenant, storeId }) => ({ portalId: tenant.portalId, appId: tenant.appId, storeId })) })
      .select({ _id: 0, portalId: 1, appId: 1, storeId: 1 })
      .lean<{ portalId: number; appId: string | null; storeId: string }[]>();
    return new Set(docs.map((doc) => storeKeyOf({ portalId: doc.portalId, appId: doc.appId ?? null }, doc.storeId)));
  }

  async upsert(tenant: Tenant, store: Store): Promise<Store> {
    await this.stores.updateOne(
      { portalId: tenant.portalId, appId: tenant.appId, storeId: store.id },
      { $set: { label: store.label, adminUri: store.adminUri ?? null } },
      { upsert: true },
    );
    return store;
  }

  /** Every store of the tenant (uninstall); answers how many went. */
  async removeAll(tenant: Tenant): Promise<number> {
    return (await this.stores.deleteMany({ portalId: tenant.portalId, appId: tenant.appId })).deletedCount;
  }

  async remove(tenant: Tenant, storeId: string): Promise<boolean> {
    const result = await this.stores.deleteOne({ portalId: tenant.portalId, appId: tenant.appId, storeId });
    return result.deletedCount === 1;
  }
}

/**
 * Of the stores these places name, those deleted since (`storeKeyOf` each), in one read: a deleted
 * store sends nothing more to the CRM. `default` never counts: it is every installed tenant's (the
 * applier checks the install; v1 and portal-direct traffic has no store of its own).
 */
export async function deletedStoresAmong(
  stores: Pick<StoreRepository, 'existing'>,
  places: readonly { tenant: Tenant; storeId: string }[],
): Promise<Set<string>> {
  const asked = new Map<string, { tenant: Tenant; storeId: string }>();
  for (const { tenant, storeId } of places) if (storeId !== DEFAULT_STORE_ID) asked.set(storeKeyOf(tenant, storeId), { tenant, storeId });
  if (asked.size === 0) return new Set();
  const existing = await stores.existing([...asked.values()]);
  return new Set([...asked.keys()].filter((key) => !existing.has(key)));
}
