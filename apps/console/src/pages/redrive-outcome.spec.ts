import { redriveOutcome, type QueueCounts } from './redrive-outcome';

const counts = (overrides: Partial<QueueCounts> = {}): QueueCounts => ({ depth: 0, consumers: 1, retrying: 0, deadLetters: 0, ...overrides });
const Q = 'webhook-dispatcher.requests';

describe('what a redrive did, from the counts read after it', () => {
  it.each<[string, number, QueueCounts[], boolean, boolean, string]>([
    ['nothing was moved', 0, [], false, true, `Redrive of ${Q}: nothing to move, the dead-letter queue was empty.`],
    ['nothing was read yet', 2, [], false, false, `Redrive of ${Q}: 2 messages moved back to the queue; checking whether they go through…`],
    // One read is not enough: the dead letters may not be back yet.
    ['one read found the queue empty', 2, [counts()], false, false, `Redrive of ${Q}: 2 messages moved back to the queue; checking whether they go through…`],
    [
      'two reads found both back',
      2,
      [counts({ deadLetters: 2 }), counts({ deadLetters: 2 })],
      false,
      true,
      `Redrive of ${Q}: 2 messages moved back to the queue; both failed again and are back in the dead-letter queue.`,
    ],
    [
      'the count was still rising',
      2,
      [counts({ deadLetters: 1 }), counts({ deadLetters: 2 })],
      false,
      false,
      `Redrive of ${Q}: 2 messages moved back to the queue; checking whether they go through…`,
    ],
    [
      'two reads found none back',
      2,
      [counts({ depth: 2 }), counts(), counts()],
      false,
      true,
      `Redrive of ${Q}: 2 messages moved back to the queue; none came back to the dead-letter queue while the page watched.`,
    ],
    [
      'one of three came back',
      3,
      [counts({ deadLetters: 1 }), counts({ deadLetters: 1 })],
      false,
      true,
      `Redrive of ${Q}: 3 messages moved back to the queue; 1 of them failed again and is back in the dead-letter queue.`,
    ],
    [
      'the one moved came back',
      1,
      [counts({ deadLetters: 1 }), counts({ deadLetters: 1 })],
      false,
      true,
      `Redrive of ${Q}: 1 message moved back to the queue; it failed again and is back in the dead-letter queue.`,
    ],
    [
      'more dead letters than were moved',
      3,
      [counts({ deadLetters: 5 }), counts({ deadLetters: 5 })],
      false,
      true,
      `Redrive of ${Q}: 3 messages moved back to the queue; all of them failed again and are back in the dead-letter queue.`,
    ],
    [
      'some still queued',
      2,
      [counts({ depth: 1 }), counts({ depth: 1 })],
      false,
      false,
      `Redrive of ${Q}: 2 messages moved back to the queue; checking whether they go through…`,
    ],
    [
      'no service reads the queue, at the end of the wait',
      2,
      [counts({ depth: 2, consumers: 0 })],
      true,
      true,
      `Redrive of ${Q}: 2 messages moved back to the queue; not settled yet: 2 messages still queued (no service reads this queue), and 0 messages in the dead-letter queue.`,
    ],
    [
      'some wait to retry, at the end of the wait',
      2,
      [counts({ retrying: 1, deadLetters: 1 })],
      true,
      true,
      `Redrive of ${Q}: 2 messages moved back to the queue; not settled yet: 1 message waiting to retry, and 1 message in the dead-letter queue.`,
    ],
    [
      'nothing could be read, at the end of the wait',
      2,
      [],
      true,
      true,
      `Redrive of ${Q}: 2 messages moved back to the queue; their outcome could not be read: look at the queue's counts.`,
    ],
  ])('when %s, then it says so', (_case, moved, reads, stoppedWaiting, settled, text) => {
    expect(redriveOutcome(Q, moved, reads, stoppedWaiting)).toEqual({ settled, text });
  });
});
