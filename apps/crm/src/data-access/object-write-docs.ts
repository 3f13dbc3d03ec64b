// The update documents of the object store's writes (ObjectStore): what each write sets and records.
import type { CrmType, PropertyDefinition } from '../domain/object-types';
import { storedValue } from '../domain/validate-values';
import { HISTORY_LIMIT, historyEntry } from '../domain/property-history';
import type { Properties } from './object-reads';

/**
 * A write's values as stored (storedValue: text, ISO dates as epoch milliseconds); the empty string
 * clears a property, and a property given null is left as it was, as the hosted CRM does (its API
 * takes values as strings; a null is answered with success and changes nothing). The values have
 * been checked against their definitions (PropertyStore.validateProperties).
 */
export function normalise(properties: Record<string, unknown>, definitions: ReadonlyMap<string, PropertyDefinition>): Properties {
  return Object.fromEntries(
    Object.entries(properties).flatMap(([name, value]) =>
      value === null ? [] : [[name, storedValue(definitions.get(name), value as string | number | boolean)]],
    ),
  );
}

/**
 * The `$push` that records written values in the same update that writes them (no round trip of its
 * own), each property's list capped at its newest HISTORY_LIMIT.
 */
export function historyPush(properties: Properties, at: Date): Record<string, unknown> {
  const push: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(properties)) push[`history.${name}`] = { $each: [historyEntry(value, at)], $slice: -HISTORY_LIMIT };
  return push;
}

/** The `$set` of properties by their paths, beside the update's own fields (`fields`). */
export function setProperties(properties: Properties, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const set: Record<string, unknown> = { ...fields };
  for (const [name, value] of Object.entries(properties)) set[`properties.${name}`] = value;
  return set;
}

/**
 * An upsert's write of an object it found by its unique value: by _id (claimed by this portal and
 * type through that value: it is theirs), created with what it writes if its claim's writer has not
 * written the object yet.
 * Not read before it is written (the hot path), an upserted object records every value the upsert
 * writes, changed or not; a batch update records only what it changes.
 */
export function upsertById(portalId: number, objectType: CrmType, id: number, properties: Properties, now: Date) {
  return {
    updateOne: {
      filter: { _id: id },
      update: {
        $set: setProperties(properties, { updatedAt: now, archived: false }),
        $push: historyPush(properties, now),
        $setOnInsert: { portalId, objectType, id, createdAt: now },
      },
      upsert: true,
    },
  };
}
