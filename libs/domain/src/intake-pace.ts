/**
 * How fast one portal's sync batches are taken in (docs/decisions/0057-intake-paced-per-portal.md).
 * Each portal has a bucket of objects that refills at `objectsPerSecond` up to `burstObjects`. A
 * batch that fits is taken at once. One that does not is held until the bucket would have refilled
 * for it, and takes its objects now (the bucket goes into debt), so batches sent at once are spaced
 * at the portal's rate. A batch that would be held longer than `maxWaitMs` is refused and takes
 * nothing: the sender is told when to try again. `objectsPerSecond` 0: no pace.
 */
export interface IntakeRate {
  objectsPerSecond: number;
  burstObjects: number;
  maxWaitMs: number;
}

export interface IntakeBucket {
  /** Objects the portal may still send at once; below 0 while held batches wait for the refill. */
  tokens: number;
  /** When `tokens` was counted (ms, on any clock that only moves forward: the gateway uses performance.now). */
  at: number;
}

export type IntakeDecision = { admitted: true; waitMs: number; bucket: IntakeBucket } | { admitted: false; retryAfterMs: number; bucket: IntakeBucket };

export function admitIntake(bucket: IntakeBucket | undefined, objects: number, now: number, rate: IntakeRate): IntakeDecision {
  if (rate.objectsPerSecond <= 0) return { admitted: true, waitMs: 0, bucket: { tokens: rate.burstObjects, at: now } };
  const refilled = bucket ? Math.min(rate.burstObjects, bucket.tokens + (Math.max(0, now - bucket.at) * rate.objectsPerSecond) / 1000) : rate.burstObjects;
  const after = refilled - objects;
  const waitMs = after >= 0 ? 0 : Math.ceil((-after * 1000) / rate.objectsPerSecond);
  if (waitMs > rate.maxWaitMs) return { admitted: false, retryAfterMs: waitMs - rate.maxWaitMs, bucket: { tokens: refilled, at: now } };
  return { admitted: true, waitMs, bucket: { tokens: after, at: now } };
}

/** True when a bucket has refilled to the whole burst by `now`: forgetting it changes nothing. */
export function intakeBucketIsFull(bucket: IntakeBucket, now: number, rate: IntakeRate): boolean {
  return bucket.tokens + (Math.max(0, now - bucket.at) * rate.objectsPerSecond) / 1000 >= rate.burstObjects;
}

/** The bucket after a batch that took `objects` was given up before it was published: they are the portal's again. */
export function returnIntake(bucket: IntakeBucket | undefined, objects: number, rate: IntakeRate): IntakeBucket | undefined {
  return bucket && { tokens: Math.min(rate.burstObjects, bucket.tokens + objects), at: bucket.at };
}
