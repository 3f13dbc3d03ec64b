import type { ConsoleObjectInspection } from '@ecomm-sync/contracts';
import { formatTime } from '../components/states';
import type { ActionNotice } from '../use-action';
import { useFollow } from '../use-follow';
import { RETRY_FOLLOW, retryOutcome, type RetriedError } from './retry-outcome';

/**
 * After a retry of one object, reads the object until its state says what the retry did (applied,
 * failed again, waiting) and puts that in the page's notice; a newer retry or leaving the page
 * stops the previous one's reading. A slow sync is followed for minutes (RETRY_FOLLOW), saying so meanwhile.
 */
export function useRetryFollow(setNotice: (notice: ActionNotice) => void) {
  const follow = useFollow(setNotice, RETRY_FOLLOW.everyMs, RETRY_FOLLOW.atMostMs);
  return (retried: RetriedError, read: () => Promise<Pick<ConsoleObjectInspection, 'status' | 'errors'>>, onSettled: () => void) => {
    const sentAt = Date.now();
    return follow(read, (now, stopped, waitedMs) => retryOutcome(retried, now, sentAt, { waitedMs, stopped }, (at) => formatTime(at)), onSettled);
  };
}
