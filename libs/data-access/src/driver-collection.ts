import type { mongo } from 'mongoose';

/**
 * A model's collection as the driver sees it, typed with the documents' own `_id` (a string key or
 * a number rather than the ObjectId the driver assumes), for the batched reads and writes that go
 * past mongoose on the hot path.
 */
export const driverCollection = <T extends mongo.Document>(model: { collection: unknown }): mongo.Collection<T> => model.collection as mongo.Collection<T>;

/** A per-object document: its `_id` is the natural key (keyString). */
export type KeyedDoc = { _id: string; [field: string]: unknown };
