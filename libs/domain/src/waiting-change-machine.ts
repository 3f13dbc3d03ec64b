import { isKeptChangeDone, replacesKeptChange } from './revision-acceptance';
import type { Revision } from './revision-order';

/**
 * A waiting change (SPEC.md "Associations": a line item before its deal or product, a deal before
 * its contacts; DESIGN.md: a window of 24 hours), as one function of the stored entry and an event:
 * it waits from the first time its object is left waiting, is released when its object is processed
 * (at its revision or a newer one), is looked at again by the periodic retry, and expires at the end
 * of its window — its error record stays open, which is how the service gives up on it. The
 * applier and both repositories (MongoDB and its fake) follow this; none decides it itself.
 */

/** One object's waiting change, as stored: null when none waits. */
export interface WaitingChangeState {
  revision: Revision;
  /** The objects it waits for, as `TYPE:externalObjectId`. */
  waitingFor: string[];
  /** When it first waited, and when its window ends. */
  since: number;
  until: number;
  /** When the periodic retry last looked at it (the least recently tried go first). */
  triedAt: number;
  /** Applied already at its revision; written again (with its associations) once what it waits for arrives. */
  reapply: boolean;
}

export type WaitingChangeEvent =
  /** A group was applied and left this revision waiting. */
  | { kind: 'left-waiting'; revision: Revision; waitingFor: string[]; reapply: boolean; now: number; windowMs: number }
  /** The object was processed at this revision: applied, or failed or skipped for another reason. */
  | { kind: 'processed'; revision: Revision }
  /** The periodic retry looked, and none of what it waits for is synced yet. */
  | { kind: 'still-missing'; now: number }
  /** Time passed. */
  | { kind: 'clock'; now: number };

/** The window a change waits in from its first wait. */
export const waitingWindow = (now: number, windowMs: number): Pick<WaitingChangeState, 'since' | 'until'> => ({ since: now, until: now + windowMs });

/** Within its window: released when what it waits for arrives, and tried by the periodic retry. */
export const isWaitingLive = (state: Pick<WaitingChangeState, 'until'>, now: number): boolean => state.until > now;

/** `next` is the state itself (the same object) when the event changes nothing; null: no change waits. */
export function waitingTransition(state: WaitingChangeState | null, event: WaitingChangeEvent): WaitingChangeState | null {
  switch (event.kind) {
    case 'left-waiting': {
      // A newer revision's entry stays; the same revision is replaced (its re-apply flag may change).
      if (!replacesKeptChange(state?.revision, event.revision)) return state;
      const window = state ? { since: state.since, until: state.until } : waitingWindow(event.now, event.windowMs);
      return { revision: event.revision, waitingFor: [...event.waitingFor], reapply: event.reapply, triedAt: event.now, ...window };
    }
    case 'processed':
      // Work that read an older entry must not remove the one a newer revision left to be applied.
      return state && isKeptChangeDone(state.revision, event.revision) ? null : state;
    case 'still-missing':
      return state && { ...state, triedAt: event.now };
    case 'clock':
      return state && !isWaitingLive(state, event.now) ? null : state;
  }
}
