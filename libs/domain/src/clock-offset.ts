/**
 * How far another clock (the database server's) is ahead of ours, read from exchanges with it: one
 * clock that every replica reads the same, however far apart their own clocks are (decision 57,
 * addendum of 2026-11-28, fourteenth session). Pure; DatabaseClock (libs/data-access) asks.
 */

/** One exchange: sent at `sentAt`, answered at `receivedAt` (our clock), the other clock read `theirs` in between. */
export interface ClockReading {
  sentAt: number;
  theirs: number;
  receivedAt: number;
}

export interface ClockOffset {
  /** Add to our clock to read theirs. */
  offsetMs: number;
  /** At most this far off: half the exchange's round trip (their reading lies somewhere within it). */
  uncertaintyMs: number;
}

/** Their clock taken as read at the exchange's midpoint. Null for a reading that cannot be one (an answer before its question, or no time). */
export function clockOffset({ sentAt, theirs, receivedAt }: ClockReading): ClockOffset | null {
  if (![sentAt, theirs, receivedAt].every(Number.isFinite) || receivedAt < sentAt) return null;
  return { offsetMs: Math.round(theirs - (sentAt + receivedAt) / 2), uncertaintyMs: (receivedAt - sentAt) / 2 };
}

/** Of several readings, the offset of the one with the shortest round trip (the least uncertain); null when none can be one. */
export function bestClockOffset(readings: readonly ClockReading[]): ClockOffset | null {
  let best: ClockOffset | null = null;
  for (const reading of readings) {
    const offset = clockOffset(reading);
    if (offset && (!best || offset.uncertaintyMs < best.uncertaintyMs)) best = offset;
  }
  return best;
}

/** An offset with when it was measured (on the clock it corrects). */
export interface MeasuredClockOffset extends ClockOffset {
  at: number;
}

/** How fast two clocks drift apart at most (100 ppm, beyond any quartz): an older offset is that much less certain. */
export const CLOCK_DRIFT_PER_MS = 1e-4;

/**
 * Whether a new measurement replaces the offset in force: when there is none, or when it is at least
 * as certain as the one in force has become since (its uncertainty grown by the drift over its age).
 * A measurement taken while the process or the database was busy (a long round trip) so does not
 * replace a good one taken a few minutes earlier, and a good one is replaced after a while anyway.
 */
export function replacesClockOffset(current: MeasuredClockOffset | null, candidate: ClockOffset, at: number): boolean {
  if (!current) return true;
  return candidate.uncertaintyMs <= current.uncertaintyMs + Math.max(0, at - current.at) * CLOCK_DRIFT_PER_MS;
}
