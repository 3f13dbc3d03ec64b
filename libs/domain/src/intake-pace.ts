import { refilled, type Refill, type TokenBucket } from './token-bucket';

/**
 * How fast one portal's sync batches are taken in (docs/decisions/0057-intake-paced-per-portal.md).
 * Each portal has a bucket of objects that refills at `objectsPerSecond` up to `burstObjects`. A
 * batch that fits is taken at once. One that does not is held until the bucket would have refilled
 * for it, and takes its objects now (the bucket goes into debt), so batches sent at once are spaced
 * at the portal's rate. A batch that would be held longer than `maxWaitMs` is refused and takes
 * nothing: the sender is told when to try again. `objectsPerSecond` 0: no pace.
 */
export interface IntakeRate extends Refill {
  maxWaitMs: number;
}

export type IntakeDecision = { admitted: true; waitMs: number; bucket: TokenBucket } | { admitted: false; retryAfterMs: number; bucket: TokenBucket };

export function admitIntake(bucket: TokenBucket | undefined, objects: number, now: number, rate: IntakeRate): IntakeDecision {
  if (rate.objectsPerSecond <= 0) return { admitted: true, waitMs: 0, bucket: { tokens: rate.burstObjects, at: now } };
  const tokens = refilled(bucket, now, rate);
  const after = tokens - objects;
  const waitMs = after >= 0 ? 0 : Math.ceil((-after * 1000) / rate.objectsPerSecond);
  if (waitMs > rate.maxWaitMs) return { admitted: false, retryAfterMs: waitMs - rate.maxWaitMs, bucket: { tokens, at: now } };
  return { admitted: true, waitMs, bucket: { tokens: after, at: now } };
}

/** The bucket after a batch that took `objects` was given up before it was published: they are the portal's again. */
export function returnIntake(bucket: TokenBucket | undefined, objects: number, rate: IntakeRate): TokenBucket | undefined {
  return bucket && { tokens: Math.min(rate.burstObjects, bucket.tokens + objects), at: bucket.at };
}
