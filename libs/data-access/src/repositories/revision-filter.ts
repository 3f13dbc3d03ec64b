import type { mongo } from 'mongoose';
import type { MappedChange, ObjectScope } from '@ecomm-sync/contracts';
import type { Revision } from '@ecomm-sync/domain';
import type { KeyedDoc } from '../driver-collection';
import { keyFields, keyStrings } from '../object-key';
import { onlyDuplicateKeyErrors } from './duplicate-key';

/** An object's kept change, as far as it is not newer than this revision. */
export interface KeptUpTo extends Revision {
  externalObjectId: string;
}

/**
 * Matches a stored document whose `change` is not newer than the revision (compareRevisions'
 * order): work on an older revision never replaces or removes a change a newer one left.
 */
export const changeNotNewerThan = ({ rev, settingsRev }: Revision) => ({
  $or: [{ 'change.rev': { $lt: rev } }, { 'change.rev': rev, 'change.settingsRev': { $lte: settingsRev } }],
});

/**
 * Keeps one change per object in a collection keyed by the object (waiting and parked changes):
 * `set` replaces what is stored unless it holds a newer change, `insert` is added to a new
 * document. The upsert of an object whose stored change is newer fails on its _id: that one stays.
 */
export async function keepNewestChanges<E extends { change: MappedChange }>(
  collection: mongo.Collection<KeyedDoc>,
  scope: ObjectScope,
  entries: readonly E[],
  write: (entry: E) => { set: Record<string, unknown>; insert: Record<string, unknown> },
): Promise<void> {
  if (entries.length === 0) return;
  const keys = keyStrings(
    scope,
    entries.map(({ change }) => change.externalObjectId),
  );
  try {
    await collection.bulkWrite(
      entries.map((entry, i) => {
        const { set, insert } = write(entry);
        return {
          updateOne: {
            filter: { _id: keys[i], ...changeNotNewerThan(entry.change) },
            update: { $set: { change: entry.change, ...set }, $setOnInsert: { ...keyFields(scope, entry.change.externalObjectId), ...insert } },
            upsert: true,
          },
        };
      }),
      { ordered: false },
    );
  } catch (error) {
    if (!onlyDuplicateKeyErrors(error)) throw error;
  }
}

/** Removes the kept changes of objects done at these revisions; one kept meanwhile for a newer revision stays. */
export async function releaseKeptChanges(collection: mongo.Collection<KeyedDoc>, scope: ObjectScope, done: readonly KeptUpTo[]): Promise<void> {
  if (done.length === 0) return;
  const keys = keyStrings(
    scope,
    done.map(({ externalObjectId }) => externalObjectId),
  );
  await collection.bulkWrite(
    done.map((revision, i) => ({ deleteOne: { filter: { _id: keys[i], ...changeNotNewerThan(revision) } } })),
    { ordered: false },
  );
}
