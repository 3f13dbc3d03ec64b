import type { Connection } from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
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
