/**
 * How long a unique value's claim is left to the writer that made it: a claim comes a few round
 * trips before its object's write, so a claim older than this whose owner does not hold the value
 * was left by a writer that died between its steps. A minute covers a process stalled for seconds
 * and the clocks of the CRM's replicas disagreeing by seconds; a writer stalled for longer between
 * its claim and its write can lose the claim and still write (decision 44, addendum).
 */
export const CLAIM_GRACE_MS = 60_000;

/** What a claim says: its owner, and when it was made (claims made before claims carried it have no date). */
export interface ClaimSeen {
  objectId: number;
  claimedAt?: Date | null;
}

/** The claim's owner as read: whether it is a live object of the claim's portal and type, and whether it holds the value. */
export interface OwnerSeen {
  live: boolean;
  holds: boolean;
}

/**
 * - `held`: the owner is live and holds the value;
 * - `in-flight`: it does not (yet), but the claim is younger than the grace: its writer may still write;
 * - `unwritten`: no object has the owner's id: a writer died between the claim and the object's first write;
 * - `abandoned`: the owner is archived or holds another value: a writer died between the write
 *   (or the archive) and the release of the value.
 */
export type ClaimState = 'held' | 'in-flight' | 'unwritten' | 'abandoned';

/** What a claim's owner makes of it (`owner` undefined: no object has its id), at `now`. */
export function claimState(claim: ClaimSeen, owner: OwnerSeen | undefined, now: Date, graceMs = CLAIM_GRACE_MS): ClaimState {
  if (owner?.live && owner.holds) return 'held';
  const age = claim.claimedAt ? now.getTime() - claim.claimedAt.getTime() : Number.POSITIVE_INFINITY;
  if (age < graceMs) return 'in-flight';
  return owner ? 'abandoned' : 'unwritten';
}

/** Whether another writer may take the value over from the claim's owner. */
export const isLeftBehind = (state: ClaimState): boolean => state === 'unwritten' || state === 'abandoned';
