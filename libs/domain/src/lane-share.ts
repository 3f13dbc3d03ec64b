import type { Lane } from '@ecomm-sync/contracts';

/**
 * Which lane a portal's accepted batch travels in (docs/decisions/0045-interactive-and-bulk-lanes.md).
 * Each portal has a share of the interactive lanes: a bucket of objects that refills at
 * `objectsPerSecond` up to `burstObjects`. A batch that fits goes interactive and takes its
 * objects from the bucket; one that does not goes bulk and takes nothing, so a portal's steady
 * traffic stays interactive while it also sends a backlog. `objectsPerSecond` 0: one lane.
 */
export interface LaneShare {
  objectsPerSecond: number;
  burstObjects: number;
}

export interface LaneBucket {
  /** Objects the portal may still send interactive. */
  tokens: number;
  /** When `tokens` was counted (ms, on any clock that only moves forward: the gateway uses performance.now). */
  at: number;
}

export function chooseLane(bucket: LaneBucket | undefined, objects: number, now: number, share: LaneShare): { lane: Lane; bucket: LaneBucket } {
  if (share.objectsPerSecond <= 0) return { lane: 'interactive', bucket: { tokens: share.burstObjects, at: now } };
  const refilled = bucket ? Math.min(share.burstObjects, bucket.tokens + (Math.max(0, now - bucket.at) * share.objectsPerSecond) / 1000) : share.burstObjects;
  if (objects <= refilled) return { lane: 'interactive', bucket: { tokens: refilled - objects, at: now } };
  return { lane: 'bulk', bucket: { tokens: refilled, at: now } };
}

/** True when a bucket has refilled to the whole burst by `now`: forgetting it changes nothing. */
export function bucketIsFull(bucket: LaneBucket, now: number, share: LaneShare): boolean {
  return bucket.tokens + (Math.max(0, now - bucket.at) * share.objectsPerSecond) / 1000 >= share.burstObjects;
}
