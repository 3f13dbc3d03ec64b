import { useEffect, useRef } from 'react';
import type { ConsoleObjectInspection } from '@ecomm-sync/contracts';
import { formatTime } from '../components/states';
import type { ActionNotice } from '../use-action';
import { retryOutcome, type RetriedError } from './retry-outcome';

/** How often, and how long, the page reads a retried object before saying there is no result yet. */
const EVERY_MS = 1000;
const AT_MOST_MS = 20_000;

/**
 * After a retry of one object, reads the object until its state says what the retry did (applied,
 * failed again, waiting) and puts that in the page's notice; a newer retry or leaving the page
 * stops the previous one's reading.
 */
export function useRetryFollow(setNotice: (notice: ActionNotice) => void) {
  const following = useRef(0);
  useEffect(
    () => () => {
      following.current++;
    },
    [],
  );
  return async (retried: RetriedError, read: () => Promise<Pick<ConsoleObjectInspection, 'status' | 'errors'>>, onSettled: () => void) => {
    const mine = ++following.current;
    const sentAt = Date.now();
    let shown = '';
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
      if (following.current !== mine) return;
      const now = await read().catch(() => undefined);
      if (following.current !== mine) return;
      const outcome = retryOutcome(retried, now, sentAt, Date.now() - sentAt >= AT_MOST_MS, (at) => formatTime(at));
      // A notice takes focus when it changes: set it only when its words do, not on every read.
      if (outcome.text !== shown) setNotice({ text: (shown = outcome.text), failed: false });
      if (outcome.settled) return onSettled();
    }
  };
}
