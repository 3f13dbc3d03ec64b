import type { Connection } from 'mongoose';

/** An index an earlier version built that this one no longer declares. */
export interface RetiredIndex {
  collection: string;
  /** The index's name as MongoDB made it (its fields joined: `field_1_other_1`). */
  name: string;
}

/**
 * Indexes no schema declares any more: `createIndexes` never drops one, so a database that an
 * earlier version set up would go on paying for them on every write.
 */
export const RETIRED_INDEXES: readonly RetiredIndex[] = [
  // Compare-and-set filters go by the `_id` index on every server now (decision 15, addendum of 2026-11-27, night).
  { collection: 'object_states', name: '_id_1_rev_1' },
  { collection: 'object_syncs', name: '_id_1_claim_1' },
];

/** MongoDB's codes for "no such index" (27, IndexNotFound) and "no such collection" (26, NamespaceNotFound). */
const ALREADY_GONE = new Set([26, 27]);

/** Drops the retired indexes where they exist; replicas starting together may race, and either one dropping is enough. */
export async function dropRetiredIndexes(connection: Connection, retired: readonly RetiredIndex[] = RETIRED_INDEXES): Promise<void> {
  await Promise.all(
    retired.map(async ({ collection, name }) => {
      try {
        await connection.db!.collection(collection).dropIndex(name);
      } catch (error) {
        if (!ALREADY_GONE.has(Number((error as { code?: unknown }).code))) throw error;
      }
    }),
  );
}
