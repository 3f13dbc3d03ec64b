import type { ConsoleObjectInspection, ConsoleRetryResult } from '@ecomm-sync/contracts';
import { bulkRetryText, RETRY_FOLLOW, retryOutcome, type RetriedError, type RetryWait } from './retry-outcome';

const retried: RetriedError = { what: 'Contacts bad-email', type: 'INVALID_EMAIL_ADDRESS', erroredAt: 1000 };
const at = (ms: number) => `t${ms}`;
const anError = (over: Partial<ConsoleObjectInspection['errors'][number]> = {}): ConsoleObjectInspection['errors'][number] => ({
  type: 'INVALID_EMAIL_ADDRESS',
  details: 'not an address',
  status: 'OPEN',
  changedAt: 1,
  erroredAt: 1000,
  whatToDo: 'Fix the mapping and retry.',
  ...over,
});
const state = (status: ConsoleObjectInspection['status'], errors = [anError()]) => ({ status, errors });
const soon: RetryWait = { waitedMs: 3000, stopped: false };
const slow: RetryWait = { waitedMs: RETRY_FOLLOW.slowAfterMs, stopped: false };
const stopped: RetryWait = { waitedMs: RETRY_FOLLOW.atMostMs, stopped: true };

describe('what a retry of one object did', () => {
  it('when the sync is slow, then the page keeps reading for minutes, saying it is still checking before it gives up', () => {
    expect(RETRY_FOLLOW.slowAfterMs).toBeLessThan(RETRY_FOLLOW.atMostMs);
    expect(RETRY_FOLLOW.atMostMs).toBeGreaterThanOrEqual(120_000);
  });

  it.each([
    [
      'the object is applied now',
      state('applied', [anError({ status: 'RESOLVED' })]),
      soon,
      true,
      'Retried Contacts bad-email: applied; its error is resolved.',
    ],
    [
      'it failed again with a newer failed time',
      state('failed', [anError({ erroredAt: 3000 })]),
      soon,
      true,
      'Retried Contacts bad-email: it failed again at t3000 (INVALID_EMAIL_ADDRESS). Fix the mapping and retry.',
    ],
    [
      'it failed with another error',
      state('failed', [anError({ type: 'MISSING_REQUIRED_PROPERTY', whatToDo: 'Map it.' })]),
      soon,
      true,
      'Retried Contacts bad-email: it failed again at t1000 (MISSING_REQUIRED_PROPERTY). Map it.',
    ],
    ['it waits for an object it references', state('waiting', []), soon, true, 'Retried Contacts bad-email: it now waits for an object it references.'],
    [
      'it is applied after a slow sync, late in the follow',
      state('applied', [anError({ status: 'RESOLVED' })]),
      { waitedMs: RETRY_FOLLOW.atMostMs - 1000, stopped: false },
      true,
      'Retried Contacts bad-email: applied; its error is resolved.',
    ],
    ['nothing changed yet', state('failed'), soon, false, 'Retry sent for Contacts bad-email at t2000; waiting for the result…'],
    ['the object could not be read yet', undefined, soon, false, 'Retry sent for Contacts bad-email at t2000; waiting for the result…'],
    [
      'nothing changed after a while, the page still reading',
      state('failed'),
      slow,
      false,
      'Retry sent for Contacts bad-email at t2000; no result yet, still checking: the sync can take a minute or two when it is busy…',
    ],
    [
      'nothing changed when the page stops waiting',
      state('failed'),
      stopped,
      true,
      'Retry sent for Contacts bad-email at t2000, no result after 2 minutes: it is still queued, or it failed again the same way (a repeated failure keeps its first failed time). Look at it again in a minute, or inspect it.',
    ],
  ])('when %s, then it says so', (_when, now, wait, settled, text) => {
    expect(retryOutcome(retried, now, 2000, wait, at)).toEqual({ settled, text });
  });
});

describe('what a retry of an error type sent', () => {
  const SET_ASIDE =
    'for a batch that was set aside before it was merged: a retry cannot clear that error; the batch is merged when the service’s operators redrive it from its dead-letter queue.';
  const answer = (over: Partial<ConsoleRetryResult>): ConsoleRetryResult => ({
    objectsQueued: 0,
    more: false,
    notStored: 0,
    setAside: 0,
    setAsideMore: false,
    ...over,
  });
  it.each([
    [answer({ objectsQueued: 1 }), 'Retry sent for 1 object (Invalid e-mail); the list updates as they resolve.'],
    [
      answer({ objectsQueued: 3, more: true }),
      'Retry sent for 3 objects (Invalid e-mail); the list updates as they resolve. More objects have this error: retry again when these are done.',
    ],
    [
      answer({ objectsQueued: 2, setAside: 1 }),
      `Retry sent for 2 objects (Invalid e-mail); the list updates as they resolve. 1 object with this error waits ${SET_ASIDE}`,
    ],
    [answer({ setAside: 2 }), `Retry sent for 0 objects (Invalid e-mail). 2 objects with this error wait ${SET_ASIDE}`],
    [answer({ setAside: 1000, setAsideMore: true }), `Retry sent for 0 objects (Invalid e-mail). More than 1000 objects with this error wait ${SET_ASIDE}`],
    [
      answer({ objectsQueued: 1, notStored: 2 }),
      'Retry sent for 1 object (Invalid e-mail); the list updates as they resolve. 2 objects with this error have nothing stored to re-apply.',
    ],
    [
      answer({ objectsQueued: 1, inDeletedStores: 3 }),
      'Retry sent for 1 object (Invalid e-mail); the list updates as they resolve. 3 objects with this error are in a store deleted since: not sent, as a deleted store sends nothing more to the CRM (define the store again to retry them).',
    ],
    [{ objectsQueued: 1, more: false } as ConsoleRetryResult, 'Retry sent for 1 object (Invalid e-mail); the list updates as they resolve.'],
  ])('when the gateway answers %j, then the notice reads as it should', (sent, text) => {
    expect(bulkRetryText(sent, 'Invalid e-mail')).toBe(text);
  });
});
