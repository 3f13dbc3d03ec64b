import { ApiError } from './api';
import { keepsData, whileAsking } from './use-polling';

describe('keepsData', () => {
  it.each([
    ['the gateway unavailable (503)', 503, true, true],
    ['no answer (a network failure)', 0, true, true],
    ['too many requests (429)', 429, true, true],
    ['a server error, with nothing read yet', 500, false, false],
    ['a server error, what is shown read for another filter', 502, false, false],
    ['the sign-in no longer valid (401)', 401, true, false],
    ['another portal (403)', 403, true, false],
    ['gone (404)', 404, true, false],
    ['a request refused (400)', 400, true, false],
  ])('when a later read fails with %s, then the page keeps what it shows: as the table says', (_case, status, hasCurrentData, kept) => {
    expect(keepsData(new ApiError(status, 'failed'), hasCurrentData)).toBe(kept);
  });
});

describe('whileAsking', () => {
  const failed = new ApiError(503, 'unavailable');
  const shown = { data: ['row'], error: failed, loading: false, updatedAt: 5, current: true };

  it.each([
    [
      'for another owner (another portal picked)',
      { otherOwner: true, askedAnew: true },
      { data: undefined, error: undefined, loading: true, updatedAt: undefined, current: false },
    ],
    ['for another page or filter', { otherOwner: false, askedAnew: true }, { data: ['row'], error: undefined, loading: true, updatedAt: 5, current: false }],
    [
      'again for the same (a poll, Try again)',
      { otherOwner: false, askedAnew: false },
      { data: ['row'], error: failed, loading: true, updatedAt: 5, current: true },
    ],
  ])('when a read is asked %s, then the page shows what the table says until it answers', (_case, asked, expected) => {
    expect(whileAsking(shown, asked)).toEqual(expected);
  });
});
