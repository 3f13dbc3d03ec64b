import type { ImportEvent, ImportState, ImportTransition } from './import-machine';

/**
 * The release of a complete import to the mapper, as the import machine's part for its four
 * release events (decisions 49 and 57): one releaser at a time holds it by a claim, says it still
 * holds it, progresses page by page, or drops it when it fails, which records why.
 */

type ReleaseEvent = Extract<ImportEvent, { kind: 'release-progressed' | 'release-claimed' | 'release-held' | 'release-dropped' }>;

export function releaseTransition<S extends ImportState>(state: S, event: ReleaseEvent): ImportTransition<S> {
  switch (event.kind) {
    case 'release-progressed':
      return releaseProgressed(state, event);
    case 'release-claimed':
      return releaseIsStale(state, event.staleBefore)
        ? { next: { ...state, releaseProgressAt: event.at, releaseOwner: event.owner }, effects: [{ kind: 'release' }] }
        : { next: state, effects: [] };
    case 'release-held':
      return releaseIsOpen(state) && holdsRelease(state, event.owner)
        ? { next: { ...state, releaseProgressAt: event.at }, effects: [] }
        : { next: state, effects: [] };
    case 'release-dropped':
      return releaseIsOpen(state) && holdsRelease(state, event.owner)
        ? { next: { ...state, releaseProgressAt: null, releaseOwner: null, releaseProblem: releaseProblem(state, event) }, effects: [] }
        : { next: state, effects: [] };
  }
}

/**
 * How long a release may keep failing, every try in a row, before it counts as a failed import for
 * the "import failed" alert (for an hour from its last failure): a customer learns that the objects
 * of an import that completed are not handed to the sync, not only from its page. Not a number of
 * tries: several replicas retry at once, and a broker away for half a minute is not a failure.
 */
export const STALLED_RELEASE_MS = 5 * 60_000;

/** Whether a release problem makes its import count as failed: failing for STALLED_RELEASE_MS without a page released. */
export const releaseStalled = (problem: ImportState['releaseProblem']): boolean => problem !== null && problem.at - problem.since >= STALLED_RELEASE_MS;

/** A failure in a row: its reason and time, one more try than the problem recorded (a page released cleared it), and since when. */
const releaseProblem = (state: ImportState, { reason, at }: { reason: string; at: number }): ImportState['releaseProblem'] => ({
  reason: reason.slice(0, 500),
  at,
  tries: (state.releaseProblem?.tries ?? 0) + 1,
  since: state.releaseProblem?.since ?? at,
});

const releaseIsOpen = (state: ImportState) => state.status === 'complete' && state.releasedAt === null;

/**
 * Whether `owner` holds the release: its claim is the stored one. A releaser that finds another
 * owner stored, or none (the other owner dropped its claim), was taken over.
 */
export const holdsRelease = (state: ImportState, owner: string): boolean => state.releaseOwner === owner;

/**
 * Whether an import's release is left to whoever takes it: complete, not released, and no releaser
 * progressed (or held it) after `staleBefore`. One releaser at a time, even across replicas and a
 * redelivered completion; one that stopped (a crash, a stop) leaves it stale after the look-back.
 */
export function releaseIsStale(state: ImportState, staleBefore: number): boolean {
  return releaseIsOpen(state) && (state.releaseProgressAt === null || state.releaseProgressAt <= staleBefore);
}

/** Only a complete import is released; once released, a late step of another releaser changes nothing. */
function releaseProgressed<S extends ImportState>(state: S, event: Extract<ImportEvent, { kind: 'release-progressed' }>): ImportTransition<S> {
  if (state.status !== 'complete') {
    return { refused: { status: 409, message: `Import ${state.importStartedAt} is ${state.status}; only a complete import is released` } };
  }
  if (state.releasedAt !== null || !holdsRelease(state, event.owner)) return { next: state, effects: [] };
  return {
    next: {
      ...state,
      releasedThrough: event.through,
      releasedAt: event.done ? event.at : null,
      releaseProgressAt: event.at,
      releaseProblem: null,
    },
    effects: [],
  };
}
