/**
 * The alerts' sync lag for one object (decision 0053, addendum): what its marker, its revision and
 * the revision the applier last processed tell.
 *
 * The mapper marks a state with the acceptance of the oldest revision not applied yet (`since`,
 * kept by `$min`); nothing clears the marker on the applier's path, so a marker can be older than
 * the revision processed since (stale). Revisions follow the clock (nextRevision), so a revision
 * is also the time it was written.
 */
export interface LagMarker {
  /** The state's marker: the oldest acceptance since the marker was last cleared. */
  since: number;
  /** The state's revision (the newest accepted). */
  rev: number;
  /** The newest revision the applier recorded processed (applied or failed); 0: none. */
  appliedRev: number;
}

/**
 * null: the object's newest revision was processed, its marker can go. Otherwise since when it
 * waits: its marker, or, when the marker is older than the processed revision (it was set before,
 * and the first acceptance after is not known), the newest revision's time: a stale marker
 * understates an object's wait, never overstates it.
 */
export function waitingSince({ since, rev, appliedRev }: LagMarker): number | null {
  if (appliedRev >= rev) return null;
  return since > appliedRev ? since : rev;
}

/** A read of the sync lag that ended before it could tell (its share of the sweep was used up). */
export const LAG_NOT_KNOWN = 'not-known' as const;

/** When a tenant's oldest object not applied yet was accepted; null: none waits. */
export type OldestUnapplied = number | null | typeof LAG_NOT_KNOWN;
