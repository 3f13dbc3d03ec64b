import { createHash } from 'node:crypto';
import { ECOMM_PROPERTY_PREFIX, type ObjectScope } from '@ecomm-sync/contracts';
import { keyOf } from './util';

/** Unique CRM property that makes creates idempotent: a retried create finds the object it made. */
export const SYNC_KEY_PROPERTY = `${ECOMM_PROPERTY_PREFIX}sync_key`;

/** One value per (tenant, store, object, incarnation); stable across retries and replicas (its spec pins it). */
export function syncKeyOf({ tenant, storeId, objectType }: ObjectScope, externalObjectId: string, generation: number): string {
  return createHash('sha256')
    .update(keyOf(tenant.portalId, tenant.appId, storeId, objectType, externalObjectId, generation))
    .digest('hex')
    .slice(0, 40);
}
