import { AsyncResource } from 'node:async_hooks';
import type { Lane } from '@ecomm-sync/contracts';

/**
 * Interactive work first within one process (decision 45, addendum of 2026-12-02): while a handler
 * of interactive work runs, bulk deliveries that arrive are held before their handling starts, and
 * go on when no interactive work runs any more, or after `maxHoldMs` at the latest, so that a
 * flood's work never starves. Bulk work already running is not interrupted. `maxHoldMs` 0: no
 * holding. It matters where a process consumes both kinds: the mapper and the applier.
 */
export class LanePriority {
  private interactiveRunning = 0;
  private held: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly maxHoldMs: number,
    /** Told when a held delivery's hand-over throws; the others are handed over all the same. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Runs a handler of work on `lane`; interactive work holds bulk deliveries while it runs. */
  async run<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
    if (lane !== 'interactive' || this.maxHoldMs <= 0) return work();
    this.interactiveRunning++;
    try {
      return await work();
    } finally {
      if (--this.interactiveRunning === 0) this.release();
    }
  }

  /** Hands over a delivery of work on `lane`: at once, or a bulk one while interactive work runs once it is done (within maxHoldMs). */
  deliver(lane: Lane, handle: () => void): void {
    if (lane !== 'bulk' || this.interactiveRunning === 0 || this.closed) return handle();
    // In the context it arrived in, not that of the interactive work whose end hands it over.
    this.held.push(AsyncResource.bind(handle));
    this.timer ??= setTimeout(() => this.release(), this.maxHoldMs);
  }

  /** Bulk deliveries held now. */
  get holding(): number {
    return this.held.length;
  }

  /** Hands over every held delivery now; one whose hand-over throws is told to `onError`, and the rest go on. */
  release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const held = this.held;
    this.held = [];
    for (const handle of held) {
      try {
        handle();
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Hands over what is held and holds nothing more (the broker is closing). */
  close(): void {
    this.closed = true;
    this.release();
  }
}
