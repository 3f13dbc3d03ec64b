import { setTimeout as delay } from 'node:timers/promises';
import { MAX_SYNC_MESSAGES } from '@ecomm-sync/contracts';
import { type IntakePaceRepository, isDatabaseUnreachable, NO_OTHER_SENDERS, type OtherSenders } from '@ecomm-sync/data-access';
import {
  intakeCostMs,
  intakeDecision,
  type IntakeLimits,
  intakeLimits,
  type IntakeRate,
  intakeRateNow,
  intakeRateProblem,
  type IntakeTake,
  type SharedIntakeRate,
  sharedIntakeRateProblem,
} from '@ecomm-sync/domain';
import { AppError, type Logger, observeIntakePace } from '@ecomm-sync/runtime';

/** Longest a batch waits for the database's answer about its pace before it goes through unpaced. */
const TAKE_TIMEOUT_MS = 500;
/** How long batches go through unpaced, without asking, after the pace could not be read. */
const UNREADABLE_PAUSE_MS = 5_000;

class NoAnswer extends Error {}

/** `promise`, or a rejection (NoAnswer) once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export interface IntakePaceOptions extends IntakeRate {
  /** Request bytes this replica holds waiting at most, all portals together; beyond it a batch that must wait gets 429 at once. */
  maxHeldBytes: number;
  /** A portal's rate while other portals send too, when lower (0 or none: its own rate throughout; intakeRateNow). */
  sharedObjectsPerSecond?: number;
}

export interface IntakePaceDeps {
  /** Epoch ms, the same on every replica (they share each portal's `due`): the database server's clock (DatabaseClock) in the service. */
  clock?: () => number;
  /** Waits `ms` (default: a timer), ending early with a rejection when `signal` aborts. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  logger?: Pick<Logger, 'warn'>;
  /** Longest wait for the database's answer (default 500 ms). */
  takeTimeoutMs?: number;
  /** Whether other portals are sending (SendingPortals in the service; default NO_OTHER_SENDERS: the shared rate never applies). */
  sending?: OtherSenders;
}

/**
 * Each portal's pace of intake (the rule: takeIntake and intakeDecision in libs/domain), shared by
 * every gateway replica through `paces`. A batch beyond the portal's rate waits here before it is
 * published, so a backfill sent as fast as the sender can is taken in at the portal's rate however
 * many replicas it is spread over, and the 204 still means accepted; one that would wait longer
 * than maxWaitMs, or while this replica already holds maxHeldBytes of waiting requests, gets 429
 * with Retry-After. While other portals send too, a portal is paced at the shared rate when that
 * is lower: a backfill beside others leaves the machines room for their work. A batch whose take the database does not answer within TAKE_TIMEOUT_MS is
 * taken unpaced (the take still counts once the database gets to it); when the database cannot be
 * reached at all, batches are taken unpaced for a few seconds without asking: the pace protects
 * other portals' latency, never at the cost of refusing work that could be accepted.
 */
export class IntakePace {
  private heldBytes = 0;
  /** Until when batches go through unpaced without asking, after the database could not be reached (clock time). */
  private unreadableUntil = 0;
  /** Until when a late answer is not warned about again (clock time). */
  private lateWarnedUntil = 0;
  private readonly clock: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  private readonly sending: OtherSenders;
  private readonly sharedRate: SharedIntakeRate;

  constructor(
    private readonly options: IntakePaceOptions,
    private readonly paces: Pick<IntakePaceRepository, 'take' | 'giveBack'>,
    private readonly deps: IntakePaceDeps = {},
  ) {
    this.clock = deps.clock ?? Date.now;
    this.wait = deps.wait ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.sending = deps.sending ?? NO_OTHER_SENDERS;
    const { objectsPerSecond, burstObjects, maxWaitMs, sharedObjectsPerSecond = 0 } = options;
    this.sharedRate = { objectsPerSecond, burstObjects, maxWaitMs, sharedObjectsPerSecond };
    const problem = intakeRateProblem(options, MAX_SYNC_MESSAGES) ?? sharedIntakeRateProblem(this.sharedRate, MAX_SYNC_MESSAGES);
    if (problem) throw new Error(problem);
    if (!Number.isFinite(options.maxHeldBytes) || options.maxHeldBytes < 0) throw new Error('INTAKE_MAX_HELD_BYTES must be 0 or more');
  }

  /**
   * Resolves when the portal's batch of `objects` (a request of `bytes`) may be published, with
   * what it charged the portal's pace (ms of its rate; 0: no pace, or it went through unpaced);
   * rejects with 429 when it may not now, having taken nothing. `signal` gives the batch up while it
   * waits (its sender went away): it rejects, and the objects are the portal's again.
   */
  async admit(portalId: number, objects: number, bytes: number, signal?: AbortSignal): Promise<number> {
    if (this.options.objectsPerSecond <= 0) return 0;
    const rate = intakeRateNow(this.sharedRate, this.sending.othersSending(portalId));
    // The bytes are held from here, so that concurrent batches see each other's before their takes.
    // A replica that holds all it may takes only what needs no wait: a batch that would wait is refused without being charged.
    const full = this.heldBytes + bytes > this.options.maxHeldBytes;
    this.heldBytes += bytes;
    try {
      const now = this.clock();
      const costMs = intakeCostMs(objects, rate);
      const take = await this.taken(portalId, costMs, now, intakeLimits(now, rate, { noWait: full }));
      if (!take) return 0;
      const decision = intakeDecision(take, costMs, now, full ? { ...rate, maxWaitMs: 0 } : rate);
      if (!decision.admitted) {
        observeIntakePace('sync', 'refused');
        throw full
          ? this.refusal(rate, 1000, 'this gateway replica holds as many waiting batches as it may')
          : this.refusal(rate, decision.retryAfterMs, `its batches would wait more than ${rate.maxWaitMs / 1000} s to be taken in`);
      }
      if (decision.waitMs > 0) await this.waitFor(portalId, costMs, decision.waitMs, signal);
      return costMs;
    } finally {
      this.heldBytes -= bytes;
    }
  }

  /**
   * Gives a portal back what an admitted batch was charged (admit's answer) when it was not accepted
   * after all (its publish failed): the very cost it took, at the rate in force then.
   */
  async giveBack(portalId: number, costMs: number): Promise<void> {
    if (this.options.objectsPerSecond <= 0 || costMs <= 0) return;
    try {
      await this.paces.giveBack(portalId, costMs, this.clock());
    } catch (error) {
      // The portal's next batches wait the longer for it, nothing worse.
      this.deps.logger?.warn('the intake pace could not be given back', { portalId, error: String(error) });
    }
  }

  private async waitFor(portalId: number, costMs: number, waitMs: number, signal?: AbortSignal): Promise<void> {
    try {
      await this.wait(waitMs, signal);
      observeIntakePace('sync', 'waited', waitMs / 1000);
    } catch (error) {
      await this.giveBack(portalId, costMs);
      // Nobody reads this answer; the status (nginx's "client closed request") tells the logs why.
      throw signal?.aborted
        ? new AppError(499, 'The sender closed the connection while its batch waited for the portal’s intake pace; nothing of it was accepted')
        : error;
    }
  }

  /**
   * The store's answer, or null when it cannot be had: then the batch goes through unpaced. A
   * database that cannot be reached also has every batch of the next few seconds go through without
   * asking, with one warning, so that its timeout is not added to every request. One that answers
   * late (a busy one) does not: its take still runs, and charges the portal if the database admits
   * it, and the next batches ask again, each waiting at most the time-box. Had a late answer opened
   * those seconds too, a flood sent while the database was busy would have gone in at full speed
   * just when the machines had the least room for it (bench: fairness, 2026-12-01).
   */
  private async taken(portalId: number, costMs: number, now: number, limits: IntakeLimits): Promise<IntakeTake | null> {
    if (now < this.unreadableUntil) {
      observeIntakePace('sync', 'unpaced');
      return null;
    }
    try {
      return await within(this.paces.take(portalId, costMs, now, limits), this.deps.takeTimeoutMs ?? TAKE_TIMEOUT_MS);
    } catch (error) {
      observeIntakePace('sync', 'unpaced');
      if (error instanceof NoAnswer) {
        if (this.clock() >= this.lateWarnedUntil) {
          this.lateWarnedUntil = this.clock() + UNREADABLE_PAUSE_MS;
          this.deps.logger?.warn('the database answered the intake pace late; the batch is taken unpaced and the next ones ask again', {
            portalId,
            error: String(error),
          });
        }
      } else if (!isDatabaseUnreachable(error)) {
        this.deps.logger?.warn('the intake pace could not be taken; the batch is taken unpaced', { portalId, error: String(error) });
      } else if (this.clock() >= this.unreadableUntil) {
        this.unreadableUntil = this.clock() + UNREADABLE_PAUSE_MS;
        this.deps.logger?.warn(`the intake pace could not be read; batches are taken unpaced for ${UNREADABLE_PAUSE_MS / 1000} s`, {
          portalId,
          error: String(error),
        });
      }
      return null;
    }
  }

  private refusal({ objectsPerSecond: perSecond }: IntakeRate, retryAfterMs: number, why: string): AppError {
    const besideOthers = perSecond < this.options.objectsPerSecond ? ' (its pace while other portals send too)' : '';
    return new AppError(
      429,
      `This portal is sending faster than ${perSecond} object${perSecond === 1 ? '' : 's'} a second${besideOthers} and ${why}. Nothing of this batch was accepted: send it again after Retry-After seconds, or send fewer batches at once`,
      { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    );
  }
}
