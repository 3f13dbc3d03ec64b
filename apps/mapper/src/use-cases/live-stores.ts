import { DEFAULT_STORE_ID } from '@ecomm-sync/contracts';
import { storeKeyOf, type OwnedObjectState, type StoreRepository } from '@ecomm-sync/data-access';
import { keyOf } from '@ecomm-sync/domain';

/**
 * The states whose store still exists, in one read per page: a store deleted since its objects
 * were received (`DELETE /v2/stores/<id>`, or an uninstall) sends nothing more to the CRM when
 * stored states are mapped again. `default` is left to the applier, which checks the install (v1
 * and portal-direct traffic has no store of its own).
 */
export async function ofLiveStores(stores: Pick<StoreRepository, 'existing'>, states: readonly OwnedObjectState[]): Promise<OwnedObjectState[]> {
  const asked = new Map<string, { tenant: OwnedObjectState['tenant']; storeId: string }>();
  for (const { tenant, storeId } of states) {
    if (storeId !== DEFAULT_STORE_ID) asked.set(keyOf(tenant.portalId, tenant.appId, storeId), { tenant, storeId });
  }
  if (asked.size === 0) return [...states];
  const existing = await stores.existing([...asked.values()]);
  return states.filter(({ tenant, storeId }) => storeId === DEFAULT_STORE_ID || existing.has(storeKeyOf(tenant, storeId)));
}
