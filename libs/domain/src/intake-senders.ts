/**
 * Who counts as sending, for the intake pace's shared rate (intakeRateNow; decision 57, addendum of
 * 2026-12-02). A portal is sending when it took intake within the window: its shared pace's `due`
 * lies less than the window behind now, or ahead (a backlog), after a take on any replica; or it
 * asked this process within the window, which counts before the next read of the shared paces. A
 * read older than the window says nothing of now (review of 2026-12-02): the first ask after a quiet
 * spell, or any while reads fail, would be answered from a time others were still sending.
 */
export const INTAKE_SENDING_WINDOW_MS = 5_000;

/** What a process knows of the others' intake when a portal asks. */
export interface IntakeSenders {
  /** Portals the last read of the shared paces found sending (a few at most: enough to tell whether any is not the one asking). */
  read: readonly number[];
  /** When that read answered (the process's own clock, as `askedHere`). */
  readAt: number;
  /** Portals that asked this process, with when (ms on the process's own clock). */
  askedHere: ReadonlyMap<number, number>;
}

/** The `due` a portal's shared pace must be after, at `now` (ms on the clock the paces are written on), for the portal to count as sending. */
export function sendingDueAfter(now: number, windowMs = INTAKE_SENDING_WINDOW_MS): number {
  return now - windowMs;
}

/**
 * Whether a portal other than `portalId` is sending: found by the last read if that answered within
 * the window, or asked here within the window before `now` (the process's own clock, the one
 * `readAt` and `askedHere` are noted on).
 */
export function anotherPortalSending(portalId: number, { read, readAt, askedHere }: IntakeSenders, now: number, windowMs = INTAKE_SENDING_WINDOW_MS): boolean {
  if (now - readAt <= windowMs && read.some((id) => id !== portalId)) return true;
  for (const [id, at] of askedHere) if (id !== portalId && now - at <= windowMs) return true;
  return false;
}
