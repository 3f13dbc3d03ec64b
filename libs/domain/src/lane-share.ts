import type { Lane } from '@ecomm-sync/contracts';
import { refilled, type Refill, type TokenBucket } from './token-bucket';

/**
 * Which lane a portal's accepted batch travels in (docs/decisions/0045-interactive-and-bulk-lanes.md).
 * Each portal has a share of the interactive lanes: a bucket of objects that refills at
 * `objectsPerSecond` up to `burstObjects`. A batch that fits goes interactive and takes its
 * objects from the bucket; one that does not goes bulk and takes nothing, so a portal's steady
 * traffic stays interactive while it also sends a backlog. `objectsPerSecond` 0: one lane.
 */
export type LaneShare = Refill;

export function chooseLane(bucket: TokenBucket | undefined, objects: number, now: number, share: LaneShare): { lane: Lane; bucket: TokenBucket } {
  if (share.objectsPerSecond <= 0) return { lane: 'interactive', bucket: { tokens: share.burstObjects, at: now } };
  const tokens = refilled(bucket, now, share);
  if (objects <= tokens) return { lane: 'interactive', bucket: { tokens: tokens - objects, at: now } };
  return { lane: 'bulk', bucket: { tokens, at: now } };
}

/**
 * The bucket after an interactive batch of `objects` was not accepted after all (its publish
 * failed): its objects are the portal's share again, within the burst. A bulk batch took nothing.
 */
export function returnLaneShare(bucket: TokenBucket | undefined, lane: Lane, objects: number, share: LaneShare): TokenBucket | undefined {
  if (!bucket || lane !== 'interactive' || share.objectsPerSecond <= 0) return bucket;
  return { tokens: Math.min(share.burstObjects, bucket.tokens + objects), at: bucket.at };
}

/**
 * What is wrong with a lane share as configured (null: nothing), for batches of up to `wholeObjects`
 * (the gateway: 200): a burst smaller than a whole batch would send every full batch bulk, however
 * quiet its portal.
 */
export function laneShareProblem({ objectsPerSecond, burstObjects }: LaneShare, wholeObjects: number): string | null {
  if (![objectsPerSecond, burstObjects].every((value) => Number.isFinite(value) && value >= 0)) {
    return 'LANE_SHARE_OBJECTS_PER_SECOND and LANE_SHARE_BURST_OBJECTS must be 0 or more';
  }
  if (objectsPerSecond > 0 && burstObjects < wholeObjects) {
    return `LANE_SHARE_BURST_OBJECTS must be at least ${wholeObjects} (one whole batch) while LANE_SHARE_OBJECTS_PER_SECOND is above 0; with ${burstObjects} every full batch would go on the bulk lanes`;
  }
  return null;
}
