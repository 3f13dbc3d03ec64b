import { bestClockOffset, type ClockReading, type MeasuredClockOffset, replacesClockOffset } from '@ecomm-sync/domain';

/** Exchanges per measurement: the one with the shortest round trip counts. */
const READINGS = 3;
/** How often the offset is measured again (two clocks drift apart slowly). */
const REFRESH_MS = 60_000;

export interface DatabaseClockDeps {
  /**
   * Our clock (epoch ms). Default: the process's monotonic clock from its start, so that a step of
   * this machine's wall clock (NTP) does not move `now()`; only the server's clock does, measured again.
   */
  local?: () => number;
  /** Told once when a measurement fails, again only after one succeeded; the offset in force stays. */
  onFailure?: (error: unknown) => void;
}

/**
 * The database server's clock, read through our own: `now()` is our clock plus the offset measured
 * from the server's `localTime` (its answer to isMaster, the one every MongoDB and the development
 * server give), again every minute. Times that replicas share through the database (each portal's
 * intake pace, an import release's claim) are written and compared on it, so replicas whose own
 * clocks are seconds apart still agree, within half the quickest round trip of a measurement. A
 * measurement less certain than the offset in force has become is not taken (replacesClockOffset).
 * Until one succeeds, it reads our own clock.
 */
export class DatabaseClock {
  private current: MeasuredClockOffset | null = null;
  private timer: NodeJS.Timeout | undefined;
  private failing = false;
  private measuring = false;
  private readonly local: () => number;

  constructor(
    /** The server's current time, asked once. */
    private readonly serverTime: () => Promise<Date | number>,
    private readonly deps: DatabaseClockDeps = {},
  ) {
    this.local = deps.local ?? (() => performance.timeOrigin + performance.now());
  }

  /** Epoch ms on the database server's clock. */
  readonly now = (): number => this.local() + (this.current?.offsetMs ?? 0);

  /** The offset in force: what the server's clock is ahead of ours (ms). */
  get offset(): number {
    return this.current?.offsetMs ?? 0;
  }

  /** How far `now()` may be off the server's clock, as measured (ms); null before a measurement. */
  get uncertainty(): number | null {
    return this.current?.uncertaintyMs ?? null;
  }

  /** Measures the offset again (a few exchanges, the quickest counts); one at a time, and on failure the one in force stays. */
  async measure(): Promise<void> {
    if (this.measuring) return;
    this.measuring = true;
    const readings: ClockReading[] = [];
    let failure: unknown;
    try {
      for (let i = 0; i < READINGS; i++) {
        const sentAt = this.local();
        const theirs = Number(await this.serverTime());
        readings.push({ sentAt, theirs, receivedAt: this.local() });
      }
    } catch (error) {
      failure = error;
    } finally {
      this.measuring = false;
    }
    const best = bestClockOffset(readings);
    if (!best) return this.failed(failure ?? new Error("the database server's answer had no usable localTime"));
    const at = this.local();
    if (replacesClockOffset(this.current, best, at)) this.current = { ...best, at };
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

  private failed(error: unknown): void {
    if (!this.failing) this.deps.onFailure?.(error);
    this.failing = true;
  }
}
