import { setTimeout as delay } from 'node:timers/promises';
import { type IntakePaceRepository, isDatabaseUnreachable } from '@ecomm-sync/data-access';
import { intakeCostMs, intakeDecision, intakeLimits, type IntakeRate, intakeRateProblem, largestIntakeTake } from '@ecomm-sync/domain';
import { type Logger, observeIntakePace } from '@ecomm-sync/runtime';

/** Shortest pause before a release asks again for room its portal's pace did not have. */
const MIN_RETRY_MS = 100;

export interface ReleasePaceDeps {
  clock?: () => number;
  /** Waits `ms` (default: a timer), ending early with a rejection when `signal` aborts. */
  wait?: (ms: number, signal?: AbortSignal) => Promise<unknown>;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * An import's release taken in at its portal's intake pace (decision 57): the pace its sync batches
 * meet at the gateway, shared through the database, so that a portal's import of 100,000 objects
 * reaches the mapper no faster than the same objects sent as sync batches. A release is background
 * work: it is never refused, but it takes its room as a sync batch does (within the same longest
 * wait), and where there is none it waits and asks again, so it pushes the portal's sync batches
 * no further than another batch of theirs would. A page bigger than one take can be granted is taken
 * in parts. When the pace cannot be read, a page goes out unpaced; when the database cannot be
 * reached at all, the release stops (it could not record its progress either) and resumes later.
 */
export class ReleasePace {
  private readonly clock: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<unknown>;

  constructor(
    private readonly rate: IntakeRate,
    private readonly paces: Pick<IntakePaceRepository, 'take' | 'giveBack'>,
    private readonly deps: ReleasePaceDeps = {},
  ) {
    const problem = intakeRateProblem(rate, 1);
    if (problem) throw new Error(problem);
    this.clock = deps.clock ?? Date.now;
    this.wait = deps.wait ?? ((ms, signal) => delay(ms, undefined, { signal }));
  }

  /**
   * Resolves when the portal's next `objects` may be released; rejects when `signal` aborts while it
   * waits, having given back what it took of them.
   */
  async take(portalId: number, objects: number, signal?: AbortSignal): Promise<void> {
    if (this.rate.objectsPerSecond <= 0) return;
    let waitedMs = 0;
    let taken = 0;
    try {
      while (taken < objects) {
        signal?.throwIfAborted();
        const part = Math.min(objects - taken, largestIntakeTake(this.rate));
        const now = this.clock();
        const costMs = intakeCostMs(part, this.rate);
        let take;
        try {
          take = await this.paces.take(portalId, costMs, now, intakeLimits(now, this.rate));
        } catch (error) {
          // A database away holds the release's own progress too: it stops, to resume where it was recorded.
          if (isDatabaseUnreachable(error)) throw error;
          this.deps.logger?.warn('the intake pace could not be read; the page is released unpaced', { portalId, error: String(error) });
          observeIntakePace('import', 'unpaced');
          return;
        }
        const decision = intakeDecision(take, costMs, now, this.rate);
        if (decision.admitted) taken += part;
        const ms = decision.admitted ? decision.waitMs : Math.max(MIN_RETRY_MS, decision.retryAfterMs);
        if (ms > 0) {
          await this.wait(ms, signal);
          waitedMs += ms;
        }
      }
    } catch (error) {
      if (taken > 0) await this.giveBack(portalId, taken);
      throw error;
    }
    if (waitedMs > 0) observeIntakePace('import', 'waited', waitedMs / 1000);
  }

  /** Gives the portal back what a page took when it was not released after all (its publish failed). */
  async giveBack(portalId: number, objects: number): Promise<void> {
    if (this.rate.objectsPerSecond <= 0) return;
    try {
      await this.paces.giveBack(portalId, intakeCostMs(objects, this.rate), this.clock());
    } catch (error) {
      this.deps.logger?.warn('the intake pace could not be given back', { portalId, error: String(error) });
    }
  }
}
