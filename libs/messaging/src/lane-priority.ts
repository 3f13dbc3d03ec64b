import type { Lane } from '@ecomm-sync/contracts';

/**
 * Interactive work first within one process (decision 45, addendum of 2026-12-02): while a handler
 * of interactive work runs, bulk deliveries that arrive are held before their handling starts, and
 * go on when no interactive work runs any more, or after `maxHoldMs` at the latest, so that a
 * flood's work never starves. Bulk work already running is not interrupted. `maxHoldMs` 0: no
 * holding.
 */
export class LanePriority {
  private interactiveRunning = 0;
  private held: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly maxHoldMs: number) {}

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
    if (lane !== 'bulk' || this.interactiveRunning === 0) return handle();
    this.held.push(handle);
    this.timer ??= setTimeout(() => this.release(), this.maxHoldMs);
  }

  /** Bulk deliveries held now. */
  get holding(): number {
    return this.held.length;
  }

  /** Hands over every held delivery (also on close, so that none stays held). */
  release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const held = this.held;
    this.held = [];
    for (const handle of held) handle();
  }
}
