/**
 * A portal's bucket of objects, refilled at `objectsPerSecond` up to `burstObjects`: what the
 * interactive lanes' shares (lane-share.ts) count with. The intake pace (intake-pace.ts) keeps the
 * same bucket as one time so that replicas can share it.
 */
export interface TokenBucket {
  /** Objects the portal may still send at once; below 0 when the rule lets it run into debt. */
  tokens: number;
  /** When `tokens` was counted (ms, on any clock that only moves forward: the gateway uses performance.now). */
  at: number;
}

export interface Refill {
  objectsPerSecond: number;
  burstObjects: number;
}

/** The objects a bucket holds by `now` (a portal without one holds the whole burst). */
export function refilled(bucket: TokenBucket | undefined, now: number, refill: Refill): number {
  if (!bucket) return refill.burstObjects;
  return Math.min(refill.burstObjects, bucket.tokens + (Math.max(0, now - bucket.at) * refill.objectsPerSecond) / 1000);
}

/** True when a bucket has refilled to the whole burst by `now`: forgetting it changes nothing. */
export function bucketIsFull(bucket: TokenBucket, now: number, refill: Refill): boolean {
  return refilled(bucket, now, refill) >= refill.burstObjects;
}
