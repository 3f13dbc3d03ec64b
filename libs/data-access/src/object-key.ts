import type { mongo } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';

/** The natural key of a sender object: every data query carries the tenant part of it. */
export interface ObjectKey extends Tenant {
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
}

/**
 * The natural key as one string, stored in the `key` field of every per-object collection. One
 * field serves equality and `$in` reads from one unique index on any MongoDB-compatible server
 * (docs/decisions/0015-single-field-object-keys.md); the JSON array keeps the parts apart.
 */
export const keyString = (key: ObjectKey): string =>
  JSON.stringify([key.portalId, key.appId, key.storeId, key.objectType, key.externalObjectId]);

/** The keys of many objects of one tenant, store and type. */
export const keyStrings = (tenant: Tenant, storeId: string, objectType: ObjectType, externalObjectIds: readonly string[]): string[] =>
  externalObjectIds.map((externalObjectId) => keyString({ portalId: tenant.portalId, appId: tenant.appId, storeId, objectType, externalObjectId }));

/** The fields of the natural key, stored beside `key` for listings and paging by tenant. */
export const keyFields = (tenant: Tenant, storeId: string, objectType: ObjectType, externalObjectId: string) => ({
  portalId: tenant.portalId,
  appId: tenant.appId,
  storeId,
  objectType,
  externalObjectId,
});

/** Filter on the fields of one object's natural key (collections without a `key` field). */
export const keyFilter = (key: ObjectKey) => keyFields(key, key.storeId, key.objectType, key.externalObjectId);

/** A collection whose documents have the natural key (keyString) as their `_id`. */
export type KeyedCollection = mongo.Collection<{ _id: string; [field: string]: unknown }>;

/** The driver's collection of a per-object model, typed with its string `_id`. */
export const keyedCollection = (model: { collection: unknown }): KeyedCollection => model.collection as KeyedCollection;
