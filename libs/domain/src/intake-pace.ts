import type { Refill } from './token-bucket';

/**
 * How fast one portal's sync batches and import pages are taken in (docs/decisions/0057-intake-paced-per-portal.md).
 * Each portal has a bucket of objects that refills at `objectsPerSecond` up to `burstObjects`. A
 * batch that fits is taken at once. One that does not is held until the bucket would have refilled
 * for it, and takes its objects now (the bucket goes into debt), so batches sent at once are spaced
 * at the portal's rate. A batch that would be held longer than `maxWaitMs` is refused and takes
 * nothing: the sender is told when to try again. `objectsPerSecond` 0: no pace.
 *
 * The bucket is kept as one time, `due`: when everything the portal was let in would have been
 * taken at its rate (a generic cell-rate algorithm). A portal whose `due` is past holds its whole
 * burst; one whose `due` is `d` ms ahead holds `burst − d × rate` objects. One number moved by
 * conditional atomic writes is what lets every replica share a portal's pace (decision 57,
 * addendum of 2026-11-28).
 */
export interface IntakeRate extends Refill {
  maxWaitMs: number;
}

/**
 * The bounds of one take: its `due` may end at `latestDue` at most (the longest wait this batch may
 * have), and a stored `due` beyond `plausibleUntil` was written by a clock that ran ahead.
 */
export interface IntakeLimits {
  latestDue: number;
  plausibleUntil: number;
}

/** What a portal's schedule says after a take: `taken`, and its `due` then (as it was when refused). */
export interface IntakeTake {
  taken: boolean;
  due: number;
}

export type IntakeDecision = { admitted: true; waitMs: number } | { admitted: false; retryAfterMs: number };

/**
 * How far a stored `due` may lie beyond what any take leaves before it is read as written by a clock
 * that ran ahead (the services read the database server's clock, so this is a backstop for one
 * that stepped): apps configured with different longest waits never reset each other's backlog.
 */
export const INTAKE_SKEW_MS = 60_000;
/** Below a microsecond a wait is arithmetic, not the rate: rates like 1,500 a second do not divide exactly. */
const ROUNDING_MS = 1e-3;

/** A portal's rate alone, and the lower one it is taken in at while other portals send too. */
export interface SharedIntakeRate extends IntakeRate {
  /**
   * Objects a second while other portals send too, when lower than `objectsPerSecond` (0: the same).
   * A portal alone may have the machines; beside others its backfill leaves them room, so that their
   * work is not slowed by CPUs it keeps busy (bench: fairness; decision 57, addendum of 2026-12-01).
   */
  sharedObjectsPerSecond: number;
}

/** The rate a portal's batch is taken in at: its own, or while other portals send too, the shared one when that is lower. */
export function intakeRateNow({ sharedObjectsPerSecond, ...own }: SharedIntakeRate, othersSending: boolean): IntakeRate {
  if (!othersSending || sharedObjectsPerSecond <= 0 || own.objectsPerSecond <= 0) return own;
  return { ...own, objectsPerSecond: Math.min(own.objectsPerSecond, sharedObjectsPerSecond) };
}

/** How long the portal's rate needs for `objects` (ms): what a batch adds to its portal's `due`. */
export function intakeCostMs(objects: number, rate: IntakeRate): number {
  return (objects * 1000) / rate.objectsPerSecond;
}

/** The latest a portal's `due` may be after a take at `now`: a burst's worth ahead plus the longest wait. */
export function latestIntakeDue(now: number, rate: IntakeRate): number {
  return now + (rate.burstObjects * 1000) / rate.objectsPerSecond + rate.maxWaitMs;
}

/**
 * The limits of a take at `now`: within the rate's longest wait, or with none at all (`noWait`: a
 * replica that holds all it may takes only what needs no wait). Plausibility is always the rate's
 * own window and the skew: a take's own limit never makes another portal's backlog look implausible.
 */
export function intakeLimits(now: number, rate: IntakeRate, { noWait = false }: { noWait?: boolean } = {}): IntakeLimits {
  const plausibleUntil = latestIntakeDue(now, rate) + INTAKE_SKEW_MS;
  return { latestDue: latestIntakeDue(now, noWait ? { ...rate, maxWaitMs: 0 } : rate), plausibleUntil };
}

/**
 * What is wrong with an intake rate as configured (null: nothing), for an app whose takes must be
 * granted `wholeObjects` at once: the gateway a whole batch of 200, an import's release one object
 * (it takes bigger pages in parts). Every app that reads the rate starts only with one that is right.
 */
export function intakeRateProblem(rate: IntakeRate, wholeObjects: number, rateKey = 'INTAKE_OBJECTS_PER_SECOND'): string | null {
  const { objectsPerSecond, burstObjects, maxWaitMs } = rate;
  if (![objectsPerSecond, burstObjects, maxWaitMs].every((value) => Number.isFinite(value) && value >= 0)) {
    return `${rateKey}, INTAKE_BURST_OBJECTS and INTAKE_MAX_WAIT_MS must be 0 or more`;
  }
  if (objectsPerSecond > 0 && largestIntakeTake(rate) < wholeObjects) {
    return `INTAKE_BURST_OBJECTS + ${rateKey} × INTAKE_MAX_WAIT_MS must admit ${wholeObjects} object${wholeObjects === 1 ? '' : 's'} at once; with ${burstObjects} + ${objectsPerSecond}/s × ${maxWaitMs} ms they would be refused forever`;
  }
  return null;
}

/** What is wrong with a shared rate as configured (null: nothing), for takes of `wholeObjects` at once (see intakeRateProblem). */
export function sharedIntakeRateProblem(rate: SharedIntakeRate, wholeObjects: number): string | null {
  const { sharedObjectsPerSecond } = rate;
  if (!Number.isFinite(sharedObjectsPerSecond) || sharedObjectsPerSecond < 0) return 'INTAKE_SHARED_OBJECTS_PER_SECOND must be 0 or more';
  return intakeRateProblem(intakeRateNow(rate, true), wholeObjects, 'INTAKE_SHARED_OBJECTS_PER_SECOND');
}

/** The most objects one take can ever be granted: a batch or page beyond it is taken in parts. */
export function largestIntakeTake(rate: IntakeRate): number {
  return Math.floor(rate.burstObjects + (rate.objectsPerSecond * rate.maxWaitMs) / 1000);
}

/**
 * Where a take at `now` starts from: the portal's `due`, but never before now (an idle portal's
 * past is not banked beyond its burst), and not a `due` no take can leave (beyond `plausibleUntil`):
 * a clock that ran ahead wrote it, and one bad clock must not hold every replica's batches of the
 * portal.
 */
export function intakeStart(due: number | undefined, now: number, plausibleUntil: number): number {
  if (due === undefined || due < now || due > plausibleUntil) return now;
  return due;
}

/**
 * The rule every store of the pace keeps (the shared one in atomic conditional writes): the
 * batch's cost is added from intakeStart, unless the portal's `due` would then pass `latestDue`;
 * then nothing is taken, and its `due` is answered as the take would have started from.
 */
export function takeIntake(due: number | undefined, costMs: number, now: number, { latestDue, plausibleUntil }: IntakeLimits): IntakeTake {
  const start = intakeStart(due, now, plausibleUntil);
  return start <= latestDue - costMs ? { taken: true, due: start + costMs } : { taken: false, due: start };
}

/**
 * A portal's `due` after a taken batch of `costMs` was given up before it was published: its
 * objects are the portal's again, but the portal holds no more than its burst (`due` not before now).
 */
export function returnIntake(due: number, costMs: number, now: number): number {
  return due <= now ? due : Math.max(now, due - costMs);
}

/**
 * What a batch of `costMs` is told once its portal's store answered `take` at `now`: admitted
 * after waiting until its objects are within the burst, or refused with when to send it again.
 */
export function intakeDecision(take: IntakeTake, costMs: number, now: number, rate: IntakeRate): IntakeDecision {
  if (rate.objectsPerSecond <= 0) return { admitted: true, waitMs: 0 };
  const burstMs = (rate.burstObjects * 1000) / rate.objectsPerSecond;
  const after = take.taken ? take.due : Math.max(take.due, now) + costMs;
  const waitMs = Math.max(0, Math.ceil(after - now - burstMs - ROUNDING_MS));
  return take.taken ? { admitted: true, waitMs } : { admitted: false, retryAfterMs: Math.max(1, waitMs - rate.maxWaitMs) };
}
