/** A processed or mapped revision of one object: its state's revision, then the settings it was mapped with. */
export interface Revision {
  rev: number;
  settingsRev: number;
}

/**
 * The one order of revisions: by the state's revision, then by the settings revision (a re-map
 * after a settings change is newer than the same state mapped before it). Negative, zero or
 * positive as `a` is older than, the same as, or newer than `b`.
 */
export const compareRevisions = (a: Revision, b: Revision): number => a.rev - b.rev || a.settingsRev - b.settingsRev;

/**
 * The revision a state write takes: one above the revision it replaces, and never below the clock
 * (ms), a hybrid logical clock. A state stored anew therefore starts above any revision an earlier
 * incarnation of the same object reached, so a state that vanished (a database restored from a
 * backup, a write lost in a crash) and is merged again never restarts below what the applier
 * already applied and would skip as "not newer".
 */
export const nextRevision = (previous: number | null, now: number): number => Math.max(previous === null ? 1 : previous + 1, Math.floor(now));
