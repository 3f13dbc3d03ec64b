import { ApiError } from './api';
import { keepsData } from './use-polling';

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
