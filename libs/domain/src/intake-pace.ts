import type { Refill } from './token-bucket';

/**
 * How fast one portal's sync batches are taken in (docs/decisions/0057-intake-paced-per-portal.md).
 * Each portal has a bucket of objects that refills at `objectsPerSecond` up to `burstObjects`. A
 * batch that fits is taken at once. One that does not is held until the bucket would have refilled
 * for it, and takes its objects now (the bucket goes into debt), so batches sent at once are spaced
 * at the portal's rate. A batch that would be held longer than `maxWaitMs` is refused and takes
 * nothing: the sender is told when to try again. `objectsPerSecond` 0: no pace.
 *
 * The bucket is kept as one time, `due`: when everything the portal was let in would have been
 * taken at its rate (a generic cell-rate algorithm). A portal whose `due` is past holds its whole
 * burst; one whose `due` is `d` ms ahead holds `burst − d × rate` objects. One number that only
 * grows by what a batch takes is what lets every gateway replica share a portal's pace with two
 * atomic writes (decision 57, addendum of 2026-11-28).
 */
export interface IntakeRate extends Refill {
  maxWaitMs: number;
}

/** What a portal's schedule says after a take: `taken`, and its `due` then (as it was when refused). */
export interface IntakeTake {
  taken: boolean;
  due: number;
}

export type IntakeDecision = { admitted: true; waitMs: number } | { admitted: false; retryAfterMs: number };

/** How long the portal's rate needs for `objects` (ms): what a batch adds to its portal's `due`. */
export function intakeCostMs(objects: number, rate: IntakeRate): number {
  return (objects * 1000) / rate.objectsPerSecond;
}

/** The latest a portal's `due` may be after a take at `now`: a burst's worth ahead plus the longest wait. */
export function latestIntakeDue(now: number, rate: IntakeRate): number {
  return now + (rate.burstObjects * 1000) / rate.objectsPerSecond + rate.maxWaitMs;
}

/**
 * The rule every store of the pace keeps (the shared one in two atomic writes): the batch's cost
 * is added from `now` at the earliest (an idle portal's past is not banked beyond its burst), unless
 * the portal's `due` would then pass `latestDue`; then nothing is taken (its `due` is answered as
 * raised to `now`, as a store has it after a refusal).
 */
export function takeIntake(due: number | undefined, costMs: number, now: number, latestDue: number): IntakeTake {
  const start = Math.max(due ?? now, now);
  return start + costMs <= latestDue ? { taken: true, due: start + costMs } : { taken: false, due: start };
}

/** A portal's `due` after a taken batch of `costMs` was given up before it was published: its objects are the portal's again. */
export function returnIntake(due: number, costMs: number): number {
  return due - costMs;
}

/**
 * What a batch of `costMs` is told once its portal's store answered `take` at `now`: admitted
 * after waiting until its objects are within the burst, or refused with when to send it again.
 */
export function intakeDecision(take: IntakeTake, costMs: number, now: number, rate: IntakeRate): IntakeDecision {
  if (rate.objectsPerSecond <= 0) return { admitted: true, waitMs: 0 };
  const burstMs = (rate.burstObjects * 1000) / rate.objectsPerSecond;
  const after = take.taken ? take.due : Math.max(take.due, now) + costMs;
  const waitMs = Math.max(0, Math.ceil(after - now - burstMs));
  return take.taken ? { admitted: true, waitMs } : { admitted: false, retryAfterMs: Math.max(1, waitMs - rate.maxWaitMs) };
}
