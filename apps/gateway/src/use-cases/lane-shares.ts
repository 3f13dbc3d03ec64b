import { type Lane, MAX_SYNC_MESSAGES } from '@ecomm-sync/contracts';
import { bucketIsFull, chooseLane, type LaneShare, laneShareProblem, returnLaneShare, type TokenBucket } from '@ecomm-sync/domain';
import { PortalBuckets } from './portal-buckets';

/**
 * Each portal's share of the interactive lanes in this gateway replica (the rule: chooseLane in
 * libs/domain). In memory: with N replicas a portal gets up to N shares, which only lets more of
 * its traffic go interactive, never loses or delays it.
 */
export class LaneShares {
  private readonly buckets: PortalBuckets<TokenBucket>;

  constructor(
    private readonly share: LaneShare,
    // Monotonic: a step of the wall clock would forgive a portal's debt, or stall its refill.
    private readonly clock: () => number = () => performance.now(),
    /** The largest batch, which a full share must take at once (laneShareProblem). */
    wholeBatch: number = MAX_SYNC_MESSAGES,
  ) {
    const problem = laneShareProblem(share, wholeBatch);
    if (problem) throw new Error(problem);
    this.buckets = new PortalBuckets((bucket, now) => bucketIsFull(bucket, now, share));
  }

  laneFor(portalId: number, objects: number): Lane {
    const now = this.clock();
    const { lane, bucket } = chooseLane(this.buckets.get(portalId, now), objects, now, this.share);
    this.buckets.set(portalId, bucket);
    return lane;
  }

  /** Gives a portal back the share a batch took in `lane` when it was not accepted after all (its publish failed). */
  giveBack(portalId: number, lane: Lane, objects: number): void {
    const returned = returnLaneShare(this.buckets.get(portalId, this.clock()), lane, objects, this.share);
    if (returned) this.buckets.set(portalId, returned);
  }
}
