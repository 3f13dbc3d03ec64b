import { refreshReuse, type RefreshReuse, type SpentRefreshToken } from './refresh-reuse';

describe('refreshReuse', () => {
  const GRACE = 60_000;
  const unused: SpentRefreshToken = { spentAt: 1000, successor: 'unused' };
  const cases: [string, SpentRefreshToken, number, number, RefreshReuse][] = [
    ['when the token is presented again at once and its pair is unused, then a new pair replaces it', unused, 1000, GRACE, 'reissue'],
    ['when it is presented again at the end of the grace, then still a new pair', unused, 1000 + GRACE, GRACE, 'reissue'],
    ['when it is presented a moment after the grace, then it is refused', unused, 1001 + GRACE, GRACE, 'past-grace'],
    ['when the pair it bought was used to refresh, then it is a replay and refused', { spentAt: 1000, successor: 'used' }, 2000, GRACE, 'successor-used'],
    ['when the pair it bought was revoked, then there is nothing to replace', { spentAt: 1000, successor: 'gone' }, 2000, GRACE, 'successor-gone'],
    ['when the grace is off (0), then a second presentation a moment later is refused', unused, 1001, 0, 'past-grace'],
    ['when the grace is off (0), then a second presentation within the same millisecond is refused too', unused, 1000, 0, 'past-grace'],
    [
      'when the pair was used and the grace is over, then the grace is the reason given',
      { spentAt: 1000, successor: 'used' },
      1001 + GRACE,
      GRACE,
      'past-grace',
    ],
  ];
  it.each(cases)('%s', (_name, spent, now, graceMs, expected) => {
    expect(refreshReuse(spent, now, graceMs)).toBe(expected);
  });
});
