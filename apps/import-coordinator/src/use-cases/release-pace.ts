import { setTimeout as delay } from 'node:timers/promises';
import { type IntakePaceRepository, isDatabaseUnreachable, NO_OTHER_SENDERS, type OtherSenders } from '@ecomm-sync/data-access';
import {
  intakeCostMs,
  intakeDecision,
  intakeLimits,
  type IntakeRate,
  intakeRateNow,
  intakeRateProblem,
  largestIntakeTake,
  type SharedIntakeRate,
  sharedIntakeRateProblem,
} from '@ecomm-sync/domain';
import { type Logger, observeIntakePace } from '@ecomm-sync/runtime';

/** Shortest pause before a release asks again for room its portal's pace did not have. */
const MIN_RETRY_MS = 100;

export interface ReleasePaceDeps {
  clock?: () => number;
  /** Waits `ms` (default: a timer), ending early with a rejection when `signal` aborts. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  logger?: Pick<Logger, 'warn'>;
  /** Whether other portals are sending (SendingPortals in the service; default NO_OTHER_SENDERS: the shared rate never applies). */
  sending?: OtherSenders;
}

/**
 * An import's release taken in at its portal's intake pace (decision 57): the pace its sync batches
 * meet at the gateway, shared through the database, so that a portal's import of 100,000 objects
 * reaches the mapper no faster than the same objects sent as sync batches. A release is background
 * work: it is never refused, but it takes its room as a sync batch does (within the same longest
 * wait), and where there is none it waits and asks again, so it pushes the portal's sync batches
 * no further than another batch of theirs would. While other portals send too, it is taken at the
 * shared rate when that is lower, as their sync batches are at the gateway. A page bigger than one
 * take can be granted is taken in parts. When the pace cannot be read, a page goes out unpaced;
 * when the database cannot be reached at all, the release stops (it could not record its progress
 * either) and resumes later.
 */
export class ReleasePace {
  private readonly clock: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  private readonly rate: SharedIntakeRate;
  private readonly sending: OtherSenders;

  constructor(
    rate: IntakeRate & { sharedObjectsPerSecond?: number },
    private readonly paces: Pick<IntakePaceRepository, 'take' | 'giveBack'>,
    private readonly deps: ReleasePaceDeps = {},
  ) {
    const { objectsPerSecond, burstObjects, maxWaitMs, sharedObjectsPerSecond = 0 } = rate;
    this.rate = { objectsPerSecond, burstObjects, maxWaitMs, sharedObjectsPerSecond };
    const problem = intakeRateProblem(this.rate, 1) ?? sharedIntakeRateProblem(this.rate, 1);
    if (problem) throw new Error(problem);
    this.clock = deps.clock ?? Date.now;
    this.wait = deps.wait ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.sending = deps.sending ?? NO_OTHER_SENDERS;
  }

  /**
   * Resolves when the portal's next `objects` may be released, with what they were charged (ms of
   * the rates in force when each part was taken, for giveBack; 0: no pace, or they went unpaced;
   * when a later part went unpaced, what the earlier parts were charged); rejects when `signal`
   * aborts while it waits, having given back what it took of them.
   */
  async take(portalId: number, objects: number, signal?: AbortSignal): Promise<number> {
    if (this.rate.objectsPerSecond <= 0) return 0;
    let waitedMs = 0;
    let taken = 0;
    let chargedMs = 0;
    try {
      while (taken < objects) {
        signal?.throwIfAborted();
        const rate = intakeRateNow(this.rate, this.sending.othersSending(portalId));
        const part = Math.min(objects - taken, largestIntakeTake(rate));
        const now = this.clock();
        const costMs = intakeCostMs(part, rate);
        let take;
        try {
          take = await this.paces.take(portalId, costMs, now, intakeLimits(now, rate));
        } catch (error) {
          // A database away holds the release's own progress too: it stops, to resume where it was recorded.
          if (isDatabaseUnreachable(error)) throw error;
          this.deps.logger?.warn('the intake pace could not be read; the page is released unpaced', { portalId, error: String(error) });
          observeIntakePace('import', 'unpaced');
          return chargedMs;
        }
        const decision = intakeDecision(take, costMs, now, rate);
        if (decision.admitted) {
          taken += part;
          chargedMs += costMs;
        }
        const ms = decision.admitted ? decision.waitMs : Math.max(MIN_RETRY_MS, decision.retryAfterMs);
        if (ms > 0) {
          await this.wait(ms, signal);
          waitedMs += ms;
        }
      }
    } catch (error) {
      await this.giveBack(portalId, chargedMs);
      throw error;
    }
    if (waitedMs > 0) observeIntakePace('import', 'waited', waitedMs / 1000);
    return chargedMs;
  }

  /** Gives the portal back what a page was charged (take's answer) when it was not released after all (its publish failed). */
  async giveBack(portalId: number, costMs: number): Promise<void> {
    if (this.rate.objectsPerSecond <= 0 || costMs <= 0) return;
    try {
      await this.paces.giveBack(portalId, costMs, this.clock());
    } catch (error) {
      this.deps.logger?.warn('the intake pace could not be given back', { portalId, error: String(error) });
    }
  }
}
