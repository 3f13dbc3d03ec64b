import { deletedStoresAmong, storeKeyOf, type OwnedObjectState, type StoreRepository } from '@ecomm-sync/data-access';

/**
 * The states whose store still exists, in one read per page: a store deleted since its objects
 * were received (`DELETE /v2/stores/<id>`, or an uninstall) sends nothing more to the CRM when
 * stored states are mapped again (deletedStoresAmong).
 */
export async function ofLiveStores(stores: Pick<StoreRepository, 'existing'>, states: readonly OwnedObjectState[]): Promise<OwnedObjectState[]> {
  const deleted = await deletedStoresAmong(stores, states);
  return states.filter(({ tenant, storeId }) => !deleted.has(storeKeyOf(tenant, storeId)));
}
