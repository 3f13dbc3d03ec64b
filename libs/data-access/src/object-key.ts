import type { ObjectScope, ObjectType, Tenant } from '@ecomm-sync/contracts';
import { keyOf } from '@ecomm-sync/domain';

/** The natural key of a sender object: every data query carries the tenant part of it. */
export interface ObjectKey extends Tenant {
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
}

/**
 * The natural key as one string: the `_id` of every per-object collection of the hot path, so that
 * equality and `$in` reads go by the _id index on any MongoDB-compatible server
 * (docs/decisions/0015-single-field-object-keys.md); the JSON array keeps the parts apart.
 */
export const keyString = (key: ObjectKey): string => keyOf(key.portalId, key.appId, key.storeId, key.objectType, key.externalObjectId);

/** The fields of the natural key, stored beside the `_id` for listings and paging by tenant. */
export const keyFields = ({ tenant, storeId, objectType }: ObjectScope, externalObjectId: string) => ({
  portalId: tenant.portalId,
  appId: tenant.appId,
  storeId,
  objectType,
  externalObjectId,
});

/** The keys of many objects of one scope. */
export const keyStrings = (scope: ObjectScope, externalObjectIds: readonly string[]): string[] =>
  externalObjectIds.map((externalObjectId) => keyString(keyFields(scope, externalObjectId)));

/** Filter on the fields of one object's natural key (collections keyed otherwise, such as errors). */
export const keyFilter = (key: ObjectKey) => ({
  portalId: key.portalId,
  appId: key.appId,
  storeId: key.storeId,
  objectType: key.objectType,
  externalObjectId: key.externalObjectId,
});
