import { setTimeout as delay } from 'node:timers/promises';
import type { IntakePaceRepository } from '@ecomm-sync/data-access';
import { intakeCostMs, intakeDecision, type IntakeRate, type IntakeTake, latestIntakeDue } from '@ecomm-sync/domain';
import { AppError, type Logger, observeIntakePace } from '@ecomm-sync/runtime';

/** The most objects one sync batch carries (a v1 or v2 request of 200 messages). */
const LARGEST_BATCH = 200;
/** Longest a batch waits for the database's answer about its pace before it goes through unpaced. */
const TAKE_TIMEOUT_MS = 500;
/** How long batches go through unpaced, without asking, after the pace could not be read. */
const UNREADABLE_PAUSE_MS = 5_000;

/** `promise`, or a rejection once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

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
  /** Longest wait for the database's answer (default 500 ms). */
  takeTimeoutMs?: number;
}

/**
 * Each portal's pace of intake (the rule: takeIntake and intakeDecision in libs/domain), shared by
 * every gateway replica through `paces`. A batch beyond the portal's rate waits here before it is
 * published, so a backfill sent as fast as the sender can is taken in at the portal's rate however
 * many replicas it is spread over, and the 204 still means accepted; one that would wait longer
 * than maxWaitMs, or while this replica already holds maxHeldBytes of waiting requests, gets 429
 * with Retry-After. When the database cannot be asked (within TAKE_TIMEOUT_MS), batches are taken
 * unpaced for a few seconds: the pace protects other portals' latency, never at the cost of
 * refusing work that could be accepted.
 */
export class IntakePace {
  private heldBytes = 0;
  /** Until when batches go through unpaced without asking, after the pace could not be read (clock time). */
  private unreadableUntil = 0;
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
    // A replica that holds all it may takes only what needs no wait: a batch that would wait is refused without being charged.
    const full = this.heldBytes + bytes > this.options.maxHeldBytes;
    const rate = full ? { ...this.options, maxWaitMs: 0 } : this.options;
    const take = await this.taken(portalId, costMs, now, latestIntakeDue(now, rate));
    if (!take) return;
    const decision = intakeDecision(take, costMs, now, rate);
    if (!decision.admitted) {
      observeIntakePace('sync', 'refused');
      throw full
        ? this.refusal(1000, 'this gateway replica holds as many waiting batches as it may')
        : this.refusal(decision.retryAfterMs, `its batches would wait more than ${this.options.maxWaitMs / 1000} s to be taken in`);
    }
    if (decision.waitMs === 0) return;
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
    if (this.options.objectsPerSecond <= 0 || this.clock() < this.unreadableUntil) return;
    try {
      await this.paces.giveBack(portalId, intakeCostMs(objects, this.options), this.clock());
    } catch (error) {
      // The portal's next batches wait the longer for it, nothing worse.
      this.deps.logger?.warn('the intake pace could not be given back', { portalId, error: String(error) });
    }
  }

  /**
   * The store's answer, or null when it cannot be had soon: then the batch goes through unpaced, and
   * for the next few seconds every batch does, without asking (a database that is away must not
   * add its timeout to every request, nor a warning per batch).
   */
  private async taken(portalId: number, costMs: number, now: number, latestDue: number): Promise<IntakeTake | null> {
    if (now < this.unreadableUntil) {
      observeIntakePace('sync', 'unpaced');
      return null;
    }
    try {
      return await within(this.paces.take(portalId, costMs, now, latestDue), this.deps.takeTimeoutMs ?? TAKE_TIMEOUT_MS);
    } catch (error) {
      this.unreadableUntil = now + UNREADABLE_PAUSE_MS;
      this.deps.logger?.warn(`the intake pace could not be read; batches are taken unpaced for ${UNREADABLE_PAUSE_MS / 1000} s`, {
        portalId,
        error: String(error),
      });
      observeIntakePace('sync', 'unpaced');
      return null;
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
