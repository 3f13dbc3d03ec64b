import type { ConsoleObjectInspection } from '@ecomm-sync/contracts';
import { formatTime } from '../components/states';
import type { ActionNotice } from '../use-action';
import { useFollow } from '../use-follow';
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
  const follow = useFollow(setNotice, EVERY_MS, AT_MOST_MS);
  return (retried: RetriedError, read: () => Promise<Pick<ConsoleObjectInspection, 'status' | 'errors'>>, onSettled: () => void) => {
    const sentAt = Date.now();
    return follow(read, (now, stoppedWaiting) => retryOutcome(retried, now, sentAt, stoppedWaiting, (at) => formatTime(at)), onSettled);
  };
}
