import { setTimeout as delay } from 'node:timers/promises';
import { admitIntake, type IntakeBucket, type IntakeRate, intakeBucketIsFull } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';

/** Buckets kept before the full ones are forgotten (a full bucket is the same as none). */
const PRUNE_AT = 10_000;

/**
 * Each portal's pace of intake in this gateway replica (the rule: admitIntake in libs/domain). A
 * batch beyond the portal's rate waits here before it is published, so a backfill sent as fast as
 * the sender can is taken in at the portal's rate and the 204 still means accepted; one that would
 * wait longer than the rate's maxWaitMs gets 429 with Retry-After. In memory: with N replicas a
 * portal may send N times the rate.
 */
export class IntakePace {
  private readonly buckets = new Map<number, IntakeBucket>();

  constructor(
    private readonly rate: IntakeRate,
    private readonly clock: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<unknown> = delay,
  ) {}

  /** Resolves when the portal's batch of `objects` may be published; rejects with 429 when it may not now. */
  async admit(portalId: number, objects: number): Promise<void> {
    const now = this.clock();
    if (this.buckets.size >= PRUNE_AT) {
      for (const [key, bucket] of this.buckets) if (intakeBucketIsFull(bucket, now, this.rate)) this.buckets.delete(key);
    }
    const decision = admitIntake(this.buckets.get(portalId), objects, now, this.rate);
    this.buckets.set(portalId, decision.bucket);
    if (!decision.admitted) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new AppError(
        429,
        `This portal is sending faster than ${this.rate.objectsPerSecond} object${this.rate.objectsPerSecond === 1 ? '' : 's'} a second; its batches already wait ${Math.round(this.rate.maxWaitMs / 1000)} s to be taken in. Nothing of this batch was accepted: send it again after Retry-After seconds, or send fewer batches at once`,
        { 'retry-after': String(seconds) },
      );
    }
    if (decision.waitMs > 0) await this.wait(decision.waitMs);
  }
}
