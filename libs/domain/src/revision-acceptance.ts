import { compareRevisions, type Revision } from './revision-order';

/**
 * Which revision of an object may reach the CRM, and which is superseded (SPEC.md "Ordering":
 * newest wins; decision 18 across replicas): one file for every place that judges revisions — the
 * applier's groups, its claim, its records, the kept (waiting and parked) changes and the repair
 * after a race. Repositories and use cases call these; none compares revisions itself.
 */

/** The revision a status says was applied: none yet is below every revision. */
export const appliedRevisionOf = (status: { appliedRev: number; appliedSettingsRev: number } | undefined | null): Revision => ({
  rev: status?.appliedRev ?? 0,
  settingsRev: status?.appliedSettingsRev ?? 0,
});

/**
 * Whether a mapped revision is written over what was applied: a newer one is; the same one only
 * when it is re-applied (a settings change, an association that arrived); an older one never.
 */
export function isRevisionToWrite(candidate: Revision, applied: Revision, reapply: boolean): boolean {
  const order = compareRevisions(candidate, applied);
  return order > 0 || (order === 0 && reapply);
}

/**
 * Two changes of one object met in one batch: the newer is kept (`replaces`), and a re-apply
 * request holds for the kept one unless it is older than what is kept (`reapplies`).
 */
export function batchedRevision(incoming: Revision, known: Revision | undefined): { replaces: boolean; reapplies: boolean } {
  const order = known ? compareRevisions(incoming, known) : 1;
  return { replaces: order > 0, reapplies: order >= 0 };
}

/** Kept changes (waiting, parked) hold one change per object: a stored change that is newer stays; the same revision is replaced. */
export const replacesKeptChange = (stored: Revision | undefined, incoming: Revision): boolean => !stored || compareRevisions(stored, incoming) <= 0;

/**
 * After a compare-and-set write of a kept change: it landed when what is stored now is not older
 * than it. Nothing stored means it did not: a release removed what the write meant to replace, so
 * the write is made again (as an insert).
 */
export const keptChangeLanded = (storedNow: Revision | undefined, written: Revision): boolean =>
  storedNow !== undefined && compareRevisions(storedNow, written) >= 0;

/** A kept change is done with once its object was processed at its revision or a newer one; one kept for a newer revision stays. */
export const isKeptChangeDone = (stored: Revision, processed: Revision): boolean => compareRevisions(stored, processed) <= 0;

/**
 * A processed revision whose record lost its claim to another writer: `superseded` when a newer
 * revision is recorded (the newest state is asked for again), `contended` otherwise (the other
 * writer's CRM write may have landed after this one's: written again).
 */
export const lostRecord = (written: Revision, recorded: Revision): 'superseded' | 'contended' =>
  compareRevisions(written, recorded) < 0 ? 'superseded' : 'contended';

/** How often a group whose records raced with another writer writes its objects again before handing them to a refresh. */
export const MAX_REWRITE_ROUNDS = 3;

/**
 * What a writer does about records that lost (decision 18): the superseded are refreshed; the
 * contended are written again while rounds remain, else refreshed too.
 */
export function raceRepair(lost: { superseded: readonly string[]; contended: readonly string[] }, round: number): { refresh: string[]; rewrite: string[] } {
  const rewrite = lost.contended.length > 0 && round < MAX_REWRITE_ROUNDS;
  return rewrite ? { refresh: [...lost.superseded], rewrite: [...lost.contended] } : { refresh: [...lost.superseded, ...lost.contended], rewrite: [] };
}
