import { bestClockOffset, type ClockReading } from '@ecomm-sync/domain';

/** Exchanges per measurement: the one with the shortest round trip counts. */
const READINGS = 3;
/** How often the offset is measured again (clocks drift slowly; NTP steps them now and then). */
const REFRESH_MS = 60_000;

export interface DatabaseClockDeps {
  /** Our clock (epoch ms). */
  local?: () => number;
  /** Told once when a measurement fails after one succeeded or none ever did; the last offset stays. */
  onFailure?: (error: unknown) => void;
}

/**
 * The database server's clock, read through our own: `now()` is our clock plus the offset measured
 * from the server's `localTime` (its answer to isMaster, the one every MongoDB and the development
 * server give), again every minute. Times that replicas share through the database (each portal's
 * intake pace, an import release's claim) are written and compared on it, so replicas whose own
 * clocks are seconds apart still agree to within a few milliseconds. Until a measurement succeeds,
 * it reads our own clock.
 */
export class DatabaseClock {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  private readonly local: () => number;

  constructor(
    /** The server's current time, asked once. */
    private readonly serverTime: () => Promise<Date | number>,
    private readonly deps: DatabaseClockDeps = {},
  ) {
    this.local = deps.local ?? Date.now;
  }

  /** Epoch ms on the database server's clock. */
  readonly now = (): number => this.local() + this.offsetMs;

  /** The offset in force: what the server's clock is ahead of ours (ms). */
  get offset(): number {
    return this.offsetMs;
  }

  /** Measures the offset again (a few exchanges, the shortest counts); on failure the last one stays. */
  async measure(): Promise<void> {
    const readings: ClockReading[] = [];
    try {
      for (let i = 0; i < READINGS; i++) {
        const sentAt = this.local();
        const theirs = Number(await this.serverTime());
        readings.push({ sentAt, theirs, receivedAt: this.local() });
      }
    } catch (error) {
      if (!this.failing) this.deps.onFailure?.(error);
      this.failing = true;
      return;
    }
    const best = bestClockOffset(readings);
    if (best) this.offsetMs = best.offsetMs;
    this.failing = false;
  }

  /** Measures now and then every `refreshMs`; the timer does not keep the process alive. */
  async start(refreshMs = REFRESH_MS): Promise<void> {
    await this.measure();
    this.stop();
    this.timer = setInterval(() => void this.measure(), refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
