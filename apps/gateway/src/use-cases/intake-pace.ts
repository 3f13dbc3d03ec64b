import { setTimeout as delay } from 'node:timers/promises';
import type { IntakePaceRepository } from '@ecomm-sync/data-access';
import { intakeCostMs, intakeDecision, type IntakeRate, latestIntakeDue } from '@ecomm-sync/domain';
import { AppError, type Logger, observeIntakePace } from '@ecomm-sync/runtime';

/** The most objects one sync batch carries (a v1 or v2 request of 200 messages). */
const LARGEST_BATCH = 200;

export interface IntakePaceOptions extends IntakeRate {
  /** Request bytes this replica holds waiting at most, all portals together; beyond it a batch that must wait gets 429 at once. */
  maxHeldBytes: number;
}

export interface IntakePaceDeps {
  /** Epoch ms. Every replica's clock must agree within a fraction of a batch's cost (NTP): they share each portal's `due`. */
  clock?: () => number;
  /** Waits `ms` (default: a timer), ending early with a rejection when `signal` aborts. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Each portal's pace of intake (the rule: takeIntake and intakeDecision in libs/domain), shared by
 * every gateway replica through `paces`. A batch beyond the portal's rate waits here before it is
 * published, so a backfill sent as fast as the sender can is taken in at the portal's rate however
 * many replicas it is spread over, and the 204 still means accepted; one that would wait longer
 * than maxWaitMs, or while this replica already holds maxHeldBytes of waiting requests, gets 429
 * with Retry-After. When the database cannot be asked, batches are taken unpaced: the pace
 * protects other portals' latency, never at the cost of refusing work that could be accepted.
 */
export class IntakePace {
  private heldBytes = 0;
  private readonly clock: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<unknown>;

  constructor(
    private readonly options: IntakePaceOptions,
    private readonly paces: Pick<IntakePaceRepository, 'take' | 'giveBack'>,
    private readonly deps: IntakePaceDeps = {},
  ) {
    this.clock = deps.clock ?? Date.now;
    this.wait = deps.wait ?? ((ms, signal) => delay(ms, undefined, { signal }));
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
    const costMs = intakeCostMs(objects, this.options);
    let take;
    try {
      take = await this.paces.take(portalId, costMs, now, latestIntakeDue(now, this.options));
    } catch (error) {
      this.deps.logger?.warn('the intake pace could not be read; the batch is taken unpaced', { portalId, error: String(error) });
      observeIntakePace('sync', 'unpaced');
      return;
    }
    const decision = intakeDecision(take, costMs, now, this.options);
    if (!decision.admitted) {
      observeIntakePace('sync', 'refused');
      throw this.refusal(decision.retryAfterMs, `its batches would wait more than ${this.options.maxWaitMs / 1000} s to be taken in`);
    }
    if (decision.waitMs === 0) return;
    if (this.heldBytes + bytes > this.options.maxHeldBytes) {
      // Nothing is taken: the portal's pace stays as it was.
      await this.giveBack(portalId, objects);
      observeIntakePace('sync', 'refused');
      throw this.refusal(1000, 'this gateway replica holds as many waiting batches as it may');
    }
    this.heldBytes += bytes;
    try {
      await this.wait(decision.waitMs, signal);
      observeIntakePace('sync', 'waited', decision.waitMs / 1000);
    } catch (error) {
      await this.giveBack(portalId, objects);
      // Nobody reads this answer; the status (nginx's "client closed request") tells the logs why.
      throw signal?.aborted
        ? new AppError(499, 'The sender closed the connection while its batch waited for the portal’s intake pace; nothing of it was accepted')
        : error;
    } finally {
      this.heldBytes -= bytes;
    }
  }

  /** Gives a portal back the objects of an admitted batch that was not accepted after all (its publish failed, or it was given up). */
  async giveBack(portalId: number, objects: number): Promise<void> {
    if (this.options.objectsPerSecond <= 0) return;
    try {
      await this.paces.giveBack(portalId, intakeCostMs(objects, this.options));
    } catch (error) {
      // The portal's next batches wait the longer for it, nothing worse.
      this.deps.logger?.warn('the intake pace could not be given back', { portalId, error: String(error) });
    }
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
