import type { ConsoleQueueStats } from '@ecomm-sync/contracts';
import type { FollowOutcome } from '../use-follow';

/** A queue's counts as the queues endpoint answers them, read after a redrive. */
export type QueueCounts = Pick<ConsoleQueueStats, 'depth' | 'consumers' | 'retrying' | 'deadLetters'>;

const messages = (n: number) => `${n} message${n === 1 ? '' : 's'}`;

/**
 * What a redrive did, from the queue's counts read after it. The redrive moves every dead letter
 * back to the queue at once; a message that fails again there (a poison message is dead-lettered
 * at its first failure) is back in the dead-letter queue a moment later, so the count the page
 * read just after the redrive said nothing yet. The counts have settled when two reads in a row
 * find nothing ready in the queue or waiting to retry, and the same dead letters: what is in the
 * dead-letter queue then is what failed again (or failed for good meanwhile, counted the same way).
 * The counts see ready messages, not those a consumer holds: "none came back" says what was seen
 * while the page watched, not that every message went through.
 */
export function redriveOutcome(queue: string, moved: number, reads: readonly QueueCounts[], stoppedWaiting: boolean): FollowOutcome {
  const head = `Redrive of ${queue}: ${messages(moved)} moved back to the queue`;
  if (moved === 0) return { settled: true, text: `Redrive of ${queue}: nothing to move, the dead-letter queue was empty.` };
  const [now, before] = [reads.at(-1), reads.at(-2)];
  const idle = (counts: QueueCounts | undefined) => counts !== undefined && counts.depth === 0 && counts.retrying === 0;
  if (now && before && idle(before) && idle(now) && before.deadLetters === now.deadLetters) {
    const back = Math.min(moved, now.deadLetters);
    if (back === 0) return { settled: true, text: `${head}; none came back to the dead-letter queue while the page watched.` };
    const which = back === moved ? (moved === 1 ? 'it' : moved === 2 ? 'both' : 'all of them') : `${back} of them`;
    return { settled: true, text: `${head}; ${which} failed again and ${back === 1 ? 'is' : 'are'} back in the dead-letter queue.` };
  }
  if (!stoppedWaiting) return { settled: false, text: `${head}; checking whether they go through…` };
  if (!now) return { settled: true, text: `${head}; their outcome could not be read: look at the queue's counts.` };
  const waiting = [
    now.depth > 0 ? `${messages(now.depth)} still queued${now.consumers === 0 ? ' (no service reads this queue)' : ''}` : '',
    now.retrying > 0 ? `${messages(now.retrying)} waiting to retry` : '',
  ].filter(Boolean);
  return {
    settled: true,
    text: `${head}; not settled yet: ${waiting.length > 0 ? waiting.join(', ') : 'still being processed'}, and ${messages(now.deadLetters)} in the dead-letter queue.`,
  };
}
