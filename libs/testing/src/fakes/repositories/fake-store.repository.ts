import type { Tenant } from '@ecomm-sync/contracts';
import { storeKeyOf, type Store, type StoreRepository } from '@ecomm-sync/data-access';
import { keyOf } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';

const tenantKey = (tenant: Tenant) => keyOf(tenant.portalId, tenant.appId);
const stored = (store: Store): Store => ({ id: store.id, label: store.label, ...(store.adminUri ? { adminUri: store.adminUri } : {}) });

/** StoreRepository in memory: stores per tenant, by store id. */
export class FakeStoreRepository implements PublicOf<StoreRepository> {
  private readonly byTenant = new Map<string, Map<string, Store>>();
  private readonly tenants = new Map<string, Tenant>();

  /** Every store with its tenant: for the fakes of the console's read models. */
  scan(): (Tenant & { store: Store })[] {
    return [...this.byTenant].flatMap(([key, stores]) => [...stores.values()].map((store) => ({ ...this.tenants.get(key)!, store: copy(store) })));
  }

  async find(tenant: Tenant, storeId: string): Promise<Store | null> {
    const found = this.byTenant.get(tenantKey(tenant))?.get(storeId);
    return found ? copy(found) : null;
  }

  async list(tenant: Tenant): Promise<Store[]> {
    return [...(this.byTenant.get(tenantKey(tenant))?.values() ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(copy);
  }

  async existing(stores: readonly { tenant: Tenant; storeId: string }[]): Promise<Set<string>> {
    return new Set(
      stores.filter(({ tenant, storeId }) => this.byTenant.get(tenantKey(tenant))?.has(storeId)).map(({ tenant, storeId }) => storeKeyOf(tenant, storeId)),
    );
  }

  async upsert(tenant: Tenant, store: Store): Promise<Store> {
    const stores = this.byTenant.get(tenantKey(tenant)) ?? new Map<string, Store>();
    stores.set(store.id, stored(store));
    this.byTenant.set(tenantKey(tenant), stores);
    this.tenants.set(tenantKey(tenant), { portalId: tenant.portalId, appId: tenant.appId });
    return store;
  }

  async removeAll(tenant: Tenant): Promise<number> {
    const count = this.byTenant.get(tenantKey(tenant))?.size ?? 0;
    this.byTenant.delete(tenantKey(tenant));
    return count;
  }

  async remove(tenant: Tenant, storeId: string): Promise<boolean> {
    return this.byTenant.get(tenantKey(tenant))?.delete(storeId) ?? false;
  }
}
