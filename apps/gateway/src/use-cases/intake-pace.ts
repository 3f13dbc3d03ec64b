import { setTimeout as delay } from 'node:timers/promises';
import { admitIntake, bucketIsFull, type IntakeRate, returnIntake, type TokenBucket } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';
import { PortalBuckets } from './portal-buckets';

/** The most objects one sync batch carries (a v1 or v2 request of 200 messages). */
const LARGEST_BATCH = 200;

export interface IntakePaceOptions extends IntakeRate {
  /** Request bytes this replica holds waiting at most, all portals together; beyond it a batch that must wait gets 429 at once. */
  maxHeldBytes: number;
}

/**
 * Each portal's pace of intake in this gateway replica (the rule: admitIntake in libs/domain). A
 * batch beyond the portal's rate waits here before it is published, so a backfill sent as fast as
 * the sender can is taken in at the portal's rate and the 204 still means accepted; one that would
 * wait longer than maxWaitMs, or while the replica already holds maxHeldBytes of waiting
 * requests, gets 429 with Retry-After. In memory: with N replicas a portal may send N times the rate.
 */
export class IntakePace {
  private readonly buckets: PortalBuckets<TokenBucket>;
  private heldBytes = 0;

  constructor(
    private readonly options: IntakePaceOptions,
    // Monotonic: a step of the wall clock would forgive a portal's debt, or stall its refill.
    private readonly clock: () => number = () => performance.now(),
    private readonly wait: (ms: number, signal?: AbortSignal) => Promise<unknown> = (ms, signal) => delay(ms, undefined, { signal }),
  ) {
    this.buckets = new PortalBuckets((bucket, now) => bucketIsFull(bucket, now, options));
    const { objectsPerSecond, burstObjects, maxWaitMs, maxHeldBytes } = options;
    if ([objectsPerSecond, burstObjects, maxWaitMs, maxHeldBytes].some((value) => !Number.isFinite(value) || value < 0)) {
      throw new Error('INTAKE_OBJECTS_PER_SECOND, INTAKE_BURST_OBJECTS, INTAKE_MAX_WAIT_MS and INTAKE_MAX_HELD_BYTES must be 0 or more');
    }
    if (objectsPerSecond > 0 && burstObjects + (objectsPerSecond * maxWaitMs) / 1000 < LARGEST_BATCH) {
      throw new Error(
        `INTAKE_BURST_OBJECTS + INTAKE_OBJECTS_PER_SECOND × INTAKE_MAX_WAIT_MS must admit a batch of ${LARGEST_BATCH} objects; with ${burstObjects} + ${objectsPerSecond}/s × ${maxWaitMs} ms a whole batch would be refused forever`,
      );
    }
  }

  /**
   * Resolves when the portal's batch of `objects` (a request of `bytes`) may be published; rejects
   * with 429 when it may not now, having taken nothing of the portal's pace. `signal` gives the
   * batch up while it waits (its sender went away): it rejects, and the objects are the portal's again.
   */
  async admit(portalId: number, objects: number, bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.options.objectsPerSecond <= 0) return;
    const now = this.clock();
    const decision = admitIntake(this.buckets.get(portalId, now), objects, now, this.options);
    if (!decision.admitted) {
      this.buckets.set(portalId, decision.bucket);
      throw this.refusal(decision.retryAfterMs, `its batches would wait more than ${this.options.maxWaitMs / 1000} s to be taken in`);
    }
    if (decision.waitMs === 0) {
      this.buckets.set(portalId, decision.bucket);
      return;
    }
    if (this.heldBytes + bytes > this.options.maxHeldBytes) {
      // Nothing is taken: the portal's pace stays as it was.
      throw this.refusal(1000, 'this gateway replica holds as many waiting batches as it may');
    }
    this.buckets.set(portalId, decision.bucket);
    this.heldBytes += bytes;
    try {
      await this.wait(decision.waitMs, signal);
    } catch (error) {
      this.giveBack(portalId, objects);
      // Nobody reads this answer; the status (nginx's "client closed request") tells the logs why.
      throw signal?.aborted
        ? new AppError(499, 'The sender closed the connection while its batch waited for the portal’s intake pace; nothing of it was accepted')
        : error;
    } finally {
      this.heldBytes -= bytes;
    }
  }

  /** Gives a portal back the objects of an admitted batch that was not accepted after all (its publish failed). */
  giveBack(portalId: number, objects: number): void {
    if (this.options.objectsPerSecond <= 0) return;
    const returned = returnIntake(this.buckets.get(portalId, this.clock()), objects, this.options);
    if (returned) this.buckets.set(portalId, returned);
  }

  private refusal(retryAfterMs: number, why: string): AppError {
    const rate = this.options.objectsPerSecond;
    return new AppError(
      429,
      `This portal is sending faster than ${rate} object${rate === 1 ? '' : 's'} a second and ${why}. Nothing of this batch was accepted: send it again after Retry-After seconds, or send fewer batches at once`,
      { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    );
  }
}
