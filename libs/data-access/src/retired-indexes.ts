import type { Connection } from 'mongoose';

/** An index an earlier version built that this one no longer declares. */
export interface RetiredIndex {
  collection: string;
  /** The index's name as MongoDB made it (its fields joined: `field_1_other_1`). */
  name: string;
}

/** A retired index still there after start-up, and why: it costs writes until dropped, nothing else. */
export interface UndroppedIndex extends RetiredIndex {
  reason: string;
}

/**
 * Indexes no schema declares any more: `createIndexes` never drops one, so a database that an
 * earlier version set up would go on paying for them on every write. Compare-and-set filters go by
 * the `_id` index on every server now (decision 15, addendum of 2026-11-27, night).
 */
export const RETIRED_INDEXES: readonly RetiredIndex[] = [
  { collection: 'object_states', name: '_id_1_rev_1' },
  { collection: 'object_syncs', name: '_id_1_claim_1' },
  { collection: 'parked_changes', name: '_id_1_change.rev_1_change.settingsRev_1' },
  { collection: 'waiting_objects', name: '_id_1_change.rev_1_change.settingsRev_1' },
  // Became portalId_1_appId_1_kind_1_createdAt_1_credentialId_1 (decision 12, the access-token limit's read).
  { collection: 'credentials', name: 'portalId_1_appId_1_kind_1' },
  // Became portalId_1_appId_1_status_1_erroredAt_-1__id_-1: the listings' sort ends in `_id`.
  { collection: 'sync_errors', name: 'portalId_1_appId_1_status_1_erroredAt_-1' },
];

/** MongoDB's codes for "no such index" (27, IndexNotFound) and "no such collection" (26, NamespaceNotFound). */
const ALREADY_GONE = new Set([26, 27]);

/**
 * Drops the retired indexes where they exist. Never fails: replicas starting together race (either
 * one dropping is enough), and in a rolling upgrade a replica of the earlier version may be building
 * one again; what could not be dropped is returned, to be logged, and dropped at the next start.
 */
export async function dropRetiredIndexes(connection: Connection, retired: readonly RetiredIndex[] = RETIRED_INDEXES): Promise<UndroppedIndex[]> {
  const outcomes = await Promise.all(
    retired.map(async (index): Promise<UndroppedIndex | null> => {
      try {
        await connection.db!.collection(index.collection).dropIndex(index.name);
        return null;
      } catch (error) {
        if (ALREADY_GONE.has(Number((error as { code?: unknown }).code))) return null;
        return { ...index, reason: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  return outcomes.filter((outcome): outcome is UndroppedIndex => outcome !== null);
}
