import { setTimeout as delay } from 'node:timers/promises';
import type { IntakePaceRepository } from '@ecomm-sync/data-access';
import { intakeCostMs, intakeDecision, latestIntakeDue, type Refill } from '@ecomm-sync/domain';
import { type Logger, observeIntakePace } from '@ecomm-sync/runtime';

/** A release is never refused: it waits as long as its portal's pace says. */
const NO_LONGEST_WAIT = Number.MAX_SAFE_INTEGER / 4;

/**
 * An import's release taken in at its portal's intake pace (decision 57): the pace its sync batches
 * meet at the gateway, shared through the database, so that a portal's import of 100,000 objects
 * reaches the mapper no faster than the same objects sent as sync batches, and the portal's own
 * batches wait their share behind it. When the database cannot be asked, a page goes out unpaced.
 */
export class ReleasePace {
  private readonly rate;

  constructor(
    refill: Refill,
    private readonly paces: Pick<IntakePaceRepository, 'take'>,
    private readonly deps: { clock?: () => number; wait?: (ms: number) => Promise<unknown>; logger?: Pick<Logger, 'warn'> } = {},
  ) {
    if (![refill.objectsPerSecond, refill.burstObjects].every((value) => Number.isFinite(value) && value >= 0)) {
      throw new Error('INTAKE_OBJECTS_PER_SECOND and INTAKE_BURST_OBJECTS must be 0 or more');
    }
    this.rate = { ...refill, maxWaitMs: NO_LONGEST_WAIT };
  }

  /** Resolves when the portal's next `objects` may be released. */
  async take(portalId: number, objects: number): Promise<void> {
    if (this.rate.objectsPerSecond <= 0 || objects === 0) return;
    const now = (this.deps.clock ?? Date.now)();
    const costMs = intakeCostMs(objects, this.rate);
    let take;
    try {
      take = await this.paces.take(portalId, costMs, now, latestIntakeDue(now, this.rate));
    } catch (error) {
      this.deps.logger?.warn('the intake pace could not be read; the page is released unpaced', { portalId, error: String(error) });
      observeIntakePace('import', 'unpaced');
      return;
    }
    const decision = intakeDecision(take, costMs, now, this.rate);
    if (!decision.admitted || decision.waitMs === 0) return;
    await (this.deps.wait ?? delay)(decision.waitMs);
    observeIntakePace('import', 'waited', decision.waitMs / 1000);
  }
}
