import type { ConsoleObjectInspection, ConsoleRetryResult, ErrorType } from '@ecomm-sync/contracts';
import { countNoun } from '../count-noun';

/** The open error a retry was asked for, as the errors page showed it. */
export interface RetriedError {
  /** How the page names the object, e.g. "Contacts bad-email". */
  what: string;
  type: ErrorType;
  erroredAt: number;
}

export interface RetryOutcome {
  /** True once the object's state says what the retry did; the page stops reading it then. */
  settled: boolean;
  text: string;
}

/**
 * How long the page reads a retried object. Mapper then applier can take more than a few seconds
 * on a busy sync: after `slowAfterMs` the notice says the page is still checking, and it says
 * "no result yet" only after `atMostMs`, when it stops reading.
 */
export const RETRY_FOLLOW = { everyMs: 1000, slowAfterMs: 20_000, atMostMs: 120_000 } as const;

/** How long the page has read the object since the retry, and whether it stopped reading. */
export interface RetryWait {
  waitedMs: number;
  stopped: boolean;
}

/**
 * What a retry of one object did, read from the object's state after it was sent. A failure like
 * the last one adds no new error (the error keeps its first failed time), so "no change yet" is
 * said as it is once the page stops waiting: still queued, or failed again the same way.
 */
export function retryOutcome(
  retried: RetriedError,
  now: Pick<ConsoleObjectInspection, 'status' | 'errors'> | undefined,
  sentAt: number,
  wait: RetryWait,
  formatTime: (at: number) => string,
): RetryOutcome {
  const open = now?.errors.filter((error) => error.status === 'OPEN') ?? [];
  const newer = open.find((error) => error.erroredAt > retried.erroredAt || error.type !== retried.type);
  if (now?.status === 'applied') return { settled: true, text: `Retried ${retried.what}: applied; its error is resolved.` };
  if (newer) return { settled: true, text: `Retried ${retried.what}: it failed again at ${formatTime(newer.erroredAt)} (${newer.type}). ${newer.whatToDo}` };
  if (now?.status === 'waiting') return { settled: true, text: `Retried ${retried.what}: it now waits for an object it references.` };
  if (now?.status === 'archived') return { settled: true, text: `Retried ${retried.what}: it is deleted; its CRM object is archived.` };
  const sent = `Retry sent for ${retried.what} at ${formatTime(sentAt)}`;
  if (!wait.stopped && wait.waitedMs < RETRY_FOLLOW.slowAfterMs) return { settled: false, text: `${sent}; waiting for the result…` };
  if (!wait.stopped) return { settled: false, text: `${sent}; no result yet, still checking: the sync can take a minute or two when it is busy…` };
  return {
    settled: true,
    text:
      `${sent}, no result after ${RETRY_FOLLOW.atMostMs / 60_000} minutes: it is still queued, or it failed again the same way ` +
      '(a repeated failure keeps its first failed time). Look at it again in a minute, or inspect it.',
  };
}

/**
 * What a retry of every object with an error type sent. Objects with nothing stored, and those whose
 * error waits for a batch set aside before it was merged, are not sent (a re-apply of what is stored
 * cannot clear their errors): the notice counts them apart, so that their errors staying open is not
 * read as a retry that failed. An older gateway answers neither count.
 */
export function bulkRetryText(sent: ConsoleRetryResult, what: string): string {
  const queued = sent.objectsQueued;
  const parts = [`Retry sent for ${queued} ${countNoun(queued, 'object')} (${what})${queued > 0 ? '; the list updates as they resolve' : ''}.`];
  const notStored = sent.notStored ?? 0;
  const setAside = sent.setAside ?? 0;
  if (notStored > 0)
    parts.push(`${notStored} ${countNoun(notStored, 'object')} with this error ${notStored === 1 ? 'has' : 'have'} nothing stored to re-apply.`);
  const inDeletedStores = sent.inDeletedStores ?? 0;
  if (inDeletedStores > 0)
    parts.push(
      `${inDeletedStores} ${countNoun(inDeletedStores, 'object')} with this error ${inDeletedStores === 1 ? 'is' : 'are'} in a store deleted since: not sent, as a deleted store sends nothing more to the CRM (define the store again to retry ${inDeletedStores === 1 ? 'it' : 'them'}).`,
    );
  if (setAside > 0)
    parts.push(
      `${sent.setAsideMore ? 'More than ' : ''}${setAside} ${countNoun(setAside, 'object')} with this error ${setAside === 1 && !sent.setAsideMore ? 'waits' : 'wait'} for a batch that was set aside before it was merged: ` +
        'a retry cannot clear that error; the batch is merged when the service’s operators redrive it from its dead-letter queue.',
    );
  if (sent.more) parts.push('More objects have this error: retry again when these are done.');
  return parts.join(' ');
}
