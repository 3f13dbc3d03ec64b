import type { mongo } from 'mongoose';
import type { MappedChange, ObjectScope } from '@ecomm-sync/contracts';
import { isKeptChangeDone, keptChangeLanded, replacesKeptChange, type Revision } from '@ecomm-sync/domain';
import type { KeyedDoc } from '../driver-collection';
import { findIn } from '../find-in';
import { keyFields, keyStrings } from '../object-key';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

/** An object's kept change, as far as it is not newer than this revision. */
export interface KeptUpTo extends Revision {
  externalObjectId: string;
}

/** Rounds of read and compare-and-set before a write of kept changes gives up (the message is retried). */
const MAX_KEEP_ROUNDS = 10;

type StoredRevision = { _id: string; change: Revision };

/** The compare-and-set filter of a kept change: the `_id` index finds the document (decision 15, addendum of 2026-11-27, night). */
const sameRevisionAs = (key: string, { rev, settingsRev }: Revision) => ({ _id: key, 'change.rev': rev, 'change.settingsRev': settingsRev });

async function storedRevisions(collection: mongo.Collection<KeyedDoc>, keys: readonly string[]): Promise<Map<string, Revision>> {
  const docs = (await findIn(collection, '_id', keys, { projection: { 'change.rev': 1, 'change.settingsRev': 1 } })) as unknown as StoredRevision[];
  return new Map(docs.map((doc) => [doc._id, doc.change]));
}

/**
 * Keeps one change per object in a collection keyed by the object (waiting and parked changes):
 * `set` replaces what is stored unless it holds a newer change, `insert` is added to a new
 * document. Reads the stored revisions, then writes by compare-and-set on them (an insert where
 * there was none, judged by the duplicate key); entries whose write lost to another writer are
 * read and written again.
 */
export async function keepNewestChanges<E extends { change: MappedChange }>(
  collection: mongo.Collection<KeyedDoc>,
  scope: ObjectScope,
  entries: readonly E[],
  write: (entry: E) => { set: Record<string, unknown>; insert: Record<string, unknown> },
): Promise<void> {
  const keys = keyStrings(
    scope,
    entries.map(({ change }) => change.externalObjectId),
  );
  let pending = entries.map((entry, i) => ({ entry, key: keys[i] }));
  for (let round = 1; pending.length > 0; round++) {
    if (round > MAX_KEEP_ROUNDS) throw new Error(`${pending.length} kept ${scope.objectType} changes kept being replaced by concurrent writers; will retry`);
    const stored = await storedRevisions(
      collection,
      pending.map(({ key }) => key),
    );
    // A stored change that is newer stays; the same revision is replaced (a re-apply flag may change).
    pending = pending.filter(({ key, entry }) => replacesKeptChange(stored.get(key), entry.change));
    if (pending.length === 0) return;
    try {
      await collection.bulkWrite(
        pending.map(({ key, entry }) => {
          const { set, insert } = write(entry);
          const seen = stored.get(key);
          return seen
            ? { updateOne: { filter: sameRevisionAs(key, seen), update: { $set: { change: entry.change, ...set } } } }
            : { insertOne: { document: { _id: key, ...keyFields(scope, entry.change.externalObjectId), change: entry.change, ...set, ...insert } } };
        }),
        { ordered: false },
      );
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
    }
    // What landed is read back: an entry whose stored change is still older lost a race, and goes again.
    const after = await storedRevisions(
      collection,
      pending.map(({ key }) => key),
    );
    pending = pending.filter(({ key, entry }) => !keptChangeLanded(after.get(key), entry.change));
  }
}

/**
 * Removes the kept changes of objects done at these revisions; one kept meanwhile for a newer
 * revision stays. Reads the stored revisions and removes by compare-and-set on them: a change kept
 * again for a newer revision between the read and the removal stays, to be applied later.
 */
export async function releaseKeptChanges(collection: mongo.Collection<KeyedDoc>, scope: ObjectScope, done: readonly KeptUpTo[]): Promise<void> {
  if (done.length === 0) return;
  const keys = keyStrings(
    scope,
    done.map(({ externalObjectId }) => externalObjectId),
  );
  const stored = await storedRevisions(collection, keys);
  const removals = done.flatMap((revision, i) => {
    const seen = stored.get(keys[i]);
    return seen && isKeptChangeDone(seen, revision) ? [{ deleteOne: { filter: sameRevisionAs(keys[i], seen) } }] : [];
  });
  if (removals.length > 0) await collection.bulkWrite(removals, { ordered: false });
}
