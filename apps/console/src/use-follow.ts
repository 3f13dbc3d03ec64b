import { useEffect, useRef } from 'react';
import type { ActionNotice } from './use-action';

/** What an action did, as far as the last read tells. */
export interface FollowOutcome {
  /** True once the reads say what the action did; the page stops reading then. */
  settled: boolean;
  text: string;
}

/**
 * After an action, reads what it acts on every `everyMs` (a timer between reads, never a busy
 * loop) until `outcome` says it settled or `atMostMs` passed, and puts each new outcome in the
 * page's notice; `outcome` is told how long the page has waited so far, to say when it is slow.
 * A newer follow, or leaving the page, stops the previous one's reading.
 */
export function useFollow(setNotice: (notice: ActionNotice) => void, everyMs: number, atMostMs: number) {
  const following = useRef(0);
  useEffect(
    () => () => {
      following.current++;
    },
    [],
  );
  return async <T>(
    read: () => Promise<T>,
    outcome: (now: T | undefined, stoppedWaiting: boolean, waitedMs: number) => FollowOutcome,
    onSettled: () => void = () => undefined,
  ): Promise<void> => {
    const mine = ++following.current;
    const startedAt = Date.now();
    let shown = '';
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (following.current !== mine) return;
      const now = await read().catch(() => undefined);
      if (following.current !== mine) return;
      const waitedMs = Date.now() - startedAt;
      const said = outcome(now, waitedMs >= atMostMs, waitedMs);
      // A notice takes focus when it changes: set it only when its words do, not on every read.
      if (said.text !== shown) setNotice({ text: (shown = said.text), failed: false });
      if (said.settled) return onSettled();
    }
  };
}
