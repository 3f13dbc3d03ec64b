/**
 * The unique index of every collection that keeps one change per object (parked and waiting
 * changes): `keepNewestChanges` and `releaseKeptChanges` write by compare-and-set on the revision
 * they read, with a filter that names exactly these fields with plain values, so that the
 * development server finds the document by this index instead of scanning the collection for every
 * write (decision 15). On MongoDB the `_id` index alone would serve; this one costs an index entry.
 */
export const KEPT_REVISION_INDEX = { _id: 1, 'change.rev': 1, 'change.settingsRev': 1 } as const;
