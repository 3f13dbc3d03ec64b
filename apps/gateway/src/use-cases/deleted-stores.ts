import { deletedStoresAmong, storeKeyOf, type StoreRepository } from '@ecomm-sync/data-access';

/** Where an object is: its tenant and store. */
export interface InStore {
  portalId: number;
  appId: string | null;
  storeId: string;
}

/**
 * Tells, page by page, which objects are in stores deleted since (deletedStoresAmong: a retry of
 * their objects would clear nothing): each store is read once, those a page names not read before
 * in one read.
 */
export function deletedStoreCheck(stores: Pick<StoreRepository, 'existing'>): (objects: readonly InStore[]) => Promise<(object: InStore) => boolean> {
  const read = new Set<string>();
  const deleted = new Set<string>();
  const keyOf = (o: InStore) => storeKeyOf({ portalId: o.portalId, appId: o.appId }, o.storeId);
  return async (objects) => {
    const unread = objects.filter((o) => !read.has(keyOf(o)));
    for (const key of await deletedStoresAmong(
      stores,
      unread.map((o) => ({ tenant: { portalId: o.portalId, appId: o.appId }, storeId: o.storeId })),
    ))
      deleted.add(key);
    for (const o of unread) read.add(keyOf(o));
    return (o) => deleted.has(keyOf(o));
  };
}
