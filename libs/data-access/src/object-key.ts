import type { ObjectType, Tenant } from '@ecomm-sync/contracts';

/** The natural key of a sender object: every data query carries the tenant part of it. */
export interface ObjectKey extends Tenant {
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
}

export const keyFilter = (key: ObjectKey) => ({
  portalId: key.portalId,
  appId: key.appId,
  storeId: key.storeId,
  objectType: key.objectType,
  externalObjectId: key.externalObjectId,
});

export const keyString = (key: ObjectKey): string =>
  JSON.stringify([key.portalId, key.appId, key.storeId, key.objectType, key.externalObjectId]);

/** Filter matching many objects of one tenant, store and type by external id. */
export const keysFilter = (tenant: Tenant, storeId: string, objectType: ObjectType, externalObjectIds: readonly string[]) => ({
  portalId: tenant.portalId,
  appId: tenant.appId,
  storeId,
  objectType,
  externalObjectId: { $in: [...externalObjectIds] },
});
