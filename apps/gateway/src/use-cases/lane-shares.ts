import type { Lane } from '@ecomm-sync/contracts';
import { bucketIsFull, chooseLane, type LaneBucket, type LaneShare } from '@ecomm-sync/domain';

/** Buckets kept before the full ones are forgotten (a full bucket is the same as none). */
const PRUNE_AT = 10_000;

/**
 * Each portal's share of the interactive lanes in this gateway replica (the rule: chooseLane in
 * libs/domain). In memory: with N replicas a portal gets up to N shares, which only lets more of
 * its traffic go interactive, never loses or delays it.
 */
export class LaneShares {
  private readonly buckets = new Map<number, LaneBucket>();

  constructor(
    private readonly share: LaneShare,
    private readonly clock: () => number = Date.now,
  ) {}

  laneFor(portalId: number, objects: number): Lane {
    const now = this.clock();
    if (this.buckets.size >= PRUNE_AT) {
      for (const [key, bucket] of this.buckets) if (bucketIsFull(bucket, now, this.share)) this.buckets.delete(key);
    }
    const { lane, bucket } = chooseLane(this.buckets.get(portalId), objects, now, this.share);
    this.buckets.set(portalId, bucket);
    return lane;
  }
}
