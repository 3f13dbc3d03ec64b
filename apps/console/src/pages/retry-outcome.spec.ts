import type { ConsoleObjectInspection } from '@ecomm-sync/contracts';
import { retryOutcome, type RetriedError } from './retry-outcome';

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

describe('what a retry of one object did', () => {
  it.each([
    [
      'the object is applied now',
      state('applied', [anError({ status: 'RESOLVED' })]),
      false,
      true,
      'Retried Contacts bad-email: applied; its error is resolved.',
    ],
    [
      'it failed again with a newer failed time',
      state('failed', [anError({ erroredAt: 3000 })]),
      false,
      true,
      'Retried Contacts bad-email: it failed again at t3000 (INVALID_EMAIL_ADDRESS). Fix the mapping and retry.',
    ],
    [
      'it failed with another error',
      state('failed', [anError({ type: 'MISSING_REQUIRED_PROPERTY', whatToDo: 'Map it.' })]),
      false,
      true,
      'Retried Contacts bad-email: it failed again at t1000 (MISSING_REQUIRED_PROPERTY). Map it.',
    ],
    ['it waits for an object it references', state('waiting', []), false, true, 'Retried Contacts bad-email: it now waits for an object it references.'],
    ['nothing changed yet', state('failed'), false, false, 'Retry sent for Contacts bad-email at t2000; waiting for the result…'],
    ['the object could not be read yet', undefined, false, false, 'Retry sent for Contacts bad-email at t2000; waiting for the result…'],
    [
      'nothing changed when the page stops waiting',
      state('failed'),
      true,
      true,
      'Retry sent for Contacts bad-email at t2000, no result yet: it is still queued, or it failed again the same way (a repeated failure keeps its first failed time). Look at it again in a minute, or inspect it.',
    ],
  ])('when %s, then it says so', (_when, now, stoppedWaiting, settled, text) => {
    expect(retryOutcome(retried, now, 2000, stoppedWaiting, at)).toEqual({ settled, text });
  });
});
