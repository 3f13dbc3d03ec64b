import { createHash } from 'node:crypto';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { ECOMM_PROPERTY_PREFIX } from '@ecomm-sync/contracts';
import { keyOf } from '@ecomm-sync/util';

/** Unique CRM property that makes creates idempotent: a retried create finds the object it made. */
export const SYNC_KEY_PROPERTY = `${ECOMM_PROPERTY_PREFIX}sync_key`;

/** One value per (tenant, store, object, incarnation); stable across retries and replicas. */
export function syncKeyOf(tenant: Tenant, storeId: string, objectType: ObjectType, externalObjectId: string, generation: number): string {
  return createHash('sha256')
    .update(keyOf(tenant.portalId, tenant.appId, storeId, objectType, externalObjectId, generation))
    .digest('hex')
    .slice(0, 40);
}
