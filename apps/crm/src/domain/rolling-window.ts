/** Events older than this before the newest are forgotten: longer than any window counted, and than any request is read late. */
const KEEP_MS = 60_000;

/**
 * Times of events (requests, counted at their arrival), sorted. An event at `t` is inside the
 * window that ends at `at` while `at - windowMs < t <= at`. Events may be added out of order: the
 * CRM counts a request at the time it arrived, and a loaded process reads one request's body and
 * account later than another's.
 */
export class RollingWindow {
  private times: number[] = [];

  add(at: number): void {
    this.times.splice(this.upTo(at), 0, at);
    const newest = this.times[this.times.length - 1];
    if (this.times.length > 1024 && this.times[0] < newest - KEEP_MS) this.times = this.times.slice(this.upTo(newest - KEEP_MS));
  }

  /** Events inside the window that ends at `at`. */
  count(at: number, windowMs: number): number {
    return this.upTo(at) - this.upTo(at - windowMs);
  }

  /** The oldest event inside the window that ends at `at`. */
  oldest(at: number, windowMs: number): number | undefined {
    return this.count(at, windowMs) > 0 ? this.times[this.upTo(at - windowMs)] : undefined;
  }

  /**
   * The most events any window of `windowMs` that holds the time `at` holds (`at` itself not
   * counted unless added): with events added out of order, one after `at` may already be in.
   */
  busiestAround(at: number, windowMs: number): number {
    let busiest = this.count(at, windowMs);
    for (let i = this.upTo(at); i < this.times.length && this.times[i] < at + windowMs; i++) busiest = Math.max(busiest, this.count(this.times[i], windowMs));
    return busiest;
  }

  /** How many events are at or before `at` (binary search). */
  private upTo(at: number): number {
    let low = 0;
    let high = this.times.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.times[mid] <= at) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
