import { DEFAULT_STORE_ID } from '@ecomm-sync/contracts';
import { storeKeyOf, type StoreRepository } from '@ecomm-sync/data-access';

/** Where an object is: its tenant and store. */
export interface InStore {
  portalId: number;
  appId: string | null;
  storeId: string;
}

/**
 * Tells, page by page, which objects are in stores deleted since (a deleted store sends nothing
 * more to the CRM, so a retry of its objects would clear nothing): each store is read once, the
 * stores a page names not read before in one read. `default` is every installed tenant's.
 */
export function deletedStoreCheck(stores: Pick<StoreRepository, 'existing'>): (objects: readonly InStore[]) => Promise<(object: InStore) => boolean> {
  const deleted = new Map<string, boolean>();
  const keyOf = (o: InStore) => storeKeyOf({ portalId: o.portalId, appId: o.appId }, o.storeId);
  return async (objects) => {
    const asked = new Map<string, InStore>();
    for (const o of objects) if (o.storeId !== DEFAULT_STORE_ID && !deleted.has(keyOf(o))) asked.set(keyOf(o), o);
    if (asked.size > 0) {
      const existing = await stores.existing([...asked.values()].map((o) => ({ tenant: { portalId: o.portalId, appId: o.appId }, storeId: o.storeId })));
      for (const key of asked.keys()) deleted.set(key, !existing.has(key));
    }
    return (o) => o.storeId !== DEFAULT_STORE_ID && deleted.get(keyOf(o)) === true;
  };
}
