import {
  decide,
  effectiveLimits,
  isSearchRequest,
  isValidTimeZone,
  limitHeaders,
  nextMidnight,
  retryAfterSeconds,
  RollingWindow,
  type HostedLimits,
  type UsageAtArrival,
} from './hosted-limits';

const limits: HostedLimits = { burstPer10s: 3, intervalMs: 10_000, dailyCap: 5, timeZone: 'UTC', searchPerSecond: 2 };
const T = Date.parse('2024-03-10T12:00:00.000Z');
const usage = (overrides: Partial<UsageAtArrival> = {}): UsageAtArrival => ({
  now: T,
  inWindow: 0,
  dailyUsed: 0,
  dailyResetAt: Date.parse('2024-03-11T00:00:00Z'),
  searchesInSecond: 0,
  ...overrides,
});

describe('decide', () => {
  it.each([
    ['when nothing is used, then it is admitted', usage(), false, { admitted: true }],
    ['when the window has room for one more, then it is admitted', usage({ inWindow: 2, oldestInWindow: T - 1 }), false, { admitted: true }],
    [
      'when the window is full, then TEN_SECONDLY_ROLLING until the oldest leaves it',
      usage({ inWindow: 3, oldestInWindow: T - 2_500 }),
      false,
      { admitted: false, policy: 'TEN_SECONDLY_ROLLING', retryAfterSeconds: 8 },
    ],
    [
      'when the oldest leaves the window in 1 ms, then Retry-After is still 1',
      usage({ inWindow: 3, oldestInWindow: T - 9_999 }),
      false,
      { admitted: false, policy: 'TEN_SECONDLY_ROLLING', retryAfterSeconds: 1 },
    ],
    [
      'when the daily cap is used, then DAILY until the reset',
      usage({ dailyUsed: 5, dailyResetAt: T + 3_600_000 }),
      false,
      { admitted: false, policy: 'DAILY', retryAfterSeconds: 3_600 },
    ],
    [
      'when both the day and the window are full, then DAILY with the longer wait',
      usage({ dailyUsed: 5, dailyResetAt: T + 5_000, inWindow: 3, oldestInWindow: T - 1_000 }),
      false,
      { admitted: false, policy: 'DAILY', retryAfterSeconds: 9 },
    ],
    [
      'when a search finds the second full, then SECONDLY',
      usage({ searchesInSecond: 2, oldestSearch: T - 400 }),
      true,
      { admitted: false, policy: 'SECONDLY', retryAfterSeconds: 1 },
    ],
    [
      'when a request that is not a search finds the second full, then it is admitted',
      usage({ searchesInSecond: 2, oldestSearch: T - 400 }),
      false,
      { admitted: true },
    ],
    [
      'when a search finds the window full too, then TEN_SECONDLY_ROLLING',
      usage({ searchesInSecond: 2, oldestSearch: T, inWindow: 3, oldestInWindow: T }),
      true,
      { admitted: false, policy: 'TEN_SECONDLY_ROLLING', retryAfterSeconds: 10 },
    ],
  ] as const)('%s', (_case, state, search, verdict) => {
    expect(decide(limits, state, search)).toEqual(verdict);
  });
});

describe('retryAfterSeconds', () => {
  it.each([
    [T + 10_000, T, 10],
    [T + 10_001, T, 11],
    [T + 1, T, 1],
    [T, T, 1],
    [T - 5, T, 1],
  ])('when ready at %d and now is %d, then %d s', (readyAt, now, seconds) => {
    expect(retryAfterSeconds(readyAt, now)).toBe(seconds);
  });
});

describe('nextMidnight', () => {
  it.each([
    ['UTC at noon', '2024-03-10T12:00:00.000Z', 'UTC', '2024-03-11T00:00:00.000Z'],
    ['UTC at midnight exactly (the next one)', '2024-03-10T00:00:00.000Z', 'UTC', '2024-03-11T00:00:00.000Z'],
    ['UTC a millisecond before midnight', '2024-03-10T23:59:59.999Z', 'UTC', '2024-03-11T00:00:00.000Z'],
    ['Berlin in winter (UTC+1)', '2024-01-15T12:00:00.000Z', 'Europe/Berlin', '2024-01-15T23:00:00.000Z'],
    ['Berlin in summer (UTC+2)', '2024-07-15T12:00:00.000Z', 'Europe/Berlin', '2024-07-15T22:00:00.000Z'],
    ['Berlin at 23:30 local, already the next UTC day', '2024-07-15T21:30:00.000Z', 'Europe/Berlin', '2024-07-15T22:00:00.000Z'],
    ['New York on the day clocks go forward (23 hours)', '2024-03-10T05:00:00.000Z', 'America/New_York', '2024-03-11T04:00:00.000Z'],
    ['New York on the day clocks go back (25 hours)', '2024-11-03T04:00:00.000Z', 'America/New_York', '2024-11-04T05:00:00.000Z'],
    ['Kathmandu (UTC+5:45)', '2024-03-10T12:00:00.000Z', 'Asia/Kathmandu', '2024-03-10T18:15:00.000Z'],
    ['Kiritimati (UTC+14) a day ahead of UTC', '2024-03-10T12:00:00.000Z', 'Pacific/Kiritimati', '2024-03-11T10:00:00.000Z'],
    ['Santiago where the clocks skip midnight (first instant of the day)', '2024-09-07T12:00:00.000Z', 'America/Santiago', '2024-09-08T04:00:00.000Z'],
  ])('when %s, then the reset is at the next local midnight', (_case, now, timeZone, expected) => {
    expect(new Date(nextMidnight(Date.parse(now), timeZone)).toISOString()).toBe(expected);
  });
});

describe('RollingWindow', () => {
  it.each([
    ['when events are inside the window, then each counts', [T - 9_999, T - 5_000, T], T, 3, T - 9_999],
    ['when an event is exactly one window old, then it has left', [T - 10_000, T - 1], T, 1, T - 1],
    ['when every event is older than the window, then none counts', [T - 30_000, T - 20_000], T, 0, undefined],
    ['when there are no events, then none counts', [], T, 0, undefined],
  ])('%s', (_case, events, now, count, oldest) => {
    const window = new RollingWindow();
    for (const at of events) window.add(at);
    expect(window.count(now, 10_000)).toBe(count);
    expect(window.oldest(now, 10_000)).toBe(oldest);
  });

  it.each([
    ['in order: the window that ends at it', [T - 9_000, T - 1_000], T, 2],
    ['after a later one was added: a window that holds both', [T + 500, T + 9_999], T, 2],
    ['after later ones, some a window away', [T + 500, T + 10_000, T + 10_001], T, 1],
    ['with earlier and later ones', [T - 9_500, T - 100, T + 300, T + 9_400], T, 3],
  ])('when an event comes at T %s, then busiestAround counts the most of any window that holds T', (_case, events, at, busiest) => {
    const window = new RollingWindow();
    for (const event of events) window.add(event);
    expect(window.busiestAround(at, 10_000)).toBe(busiest);
  });

  it('when events are added out of order, then count and oldest see them in time order', () => {
    const window = new RollingWindow();
    for (const at of [T, T - 5_000, T - 12_000, T - 1]) window.add(at);
    expect(window.count(T, 10_000)).toBe(3);
    expect(window.oldest(T, 10_000)).toBe(T - 5_000);
    expect(window.count(T - 2, 10_000)).toBe(1);
  });

  it('when thousands of events pass through, then it counts exactly the last window', () => {
    const window = new RollingWindow();
    for (let i = 0; i < 5_000; i++) window.add(T + i * 10);
    expect(window.count(T + 49_990, 10_000)).toBe(1_000);
    expect(window.oldest(T + 49_990, 10_000)).toBe(T + 40_000);
  });
});

describe('limitHeaders', () => {
  it.each([
    [{ inWindow: 1, dailyUsed: 1 }, '2', '4'],
    [{ inWindow: 3, dailyUsed: 5 }, '0', '0'],
    [{ inWindow: 4, dailyUsed: 9 }, '0', '0'],
  ])('when %j is used, then the headers say %s and %s remain', (used, remaining, dailyRemaining) => {
    expect(limitHeaders(limits, used)).toEqual({
      'X-HubSpot-RateLimit-Max': '3',
      'X-HubSpot-RateLimit-Remaining': remaining,
      'X-HubSpot-RateLimit-Interval-Milliseconds': '10000',
      'X-HubSpot-RateLimit-Daily': '5',
      'X-HubSpot-RateLimit-Daily-Remaining': dailyRemaining,
    });
  });

  it('when the request has no daily limit (OAuth), then it has no daily headers', () => {
    expect(limitHeaders(limits, { inWindow: 1, dailyUsed: null })).toEqual({
      'X-HubSpot-RateLimit-Max': '3',
      'X-HubSpot-RateLimit-Remaining': '2',
      'X-HubSpot-RateLimit-Interval-Milliseconds': '10000',
    });
  });
});

describe('effectiveLimits, isSearchRequest, isValidTimeZone', () => {
  const environment = { ...limits, burstPer10s: 100 };
  it.each([
    ["when the account has none of its own, then the environment's", undefined, environment, environment],
    ['when the account has none and the environment none, then none', undefined, null, null],
    ['when the account switched them off, then none', null, environment, null],
    ['when the account has its own, then its own', limits, environment, limits],
  ] as const)('%s', (_case, own, env, expected) => {
    expect(effectiveLimits(own, env)).toEqual(expected);
  });

  it.each([
    ['POST', '/v3/objects/contacts/search', true],
    ['post', '/v3/objects/deals/search/', true],
    ['GET', '/v3/objects/contacts/search', false],
    ['POST', '/v3/objects/contacts/batch/create', false],
    ['POST', '/v3/objects/searches/batch/read', false],
  ])('when %s %s, then search is %s', (method, path, expected) => {
    expect(isSearchRequest(method, path)).toBe(expected);
  });

  it.each([
    ['UTC', true],
    ['Europe/Berlin', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Mars/Olympus_Mons', false],
    ['', false],
  ])('when the time zone is "%s", then valid is %s', (timeZone, valid) => {
    expect(isValidTimeZone(timeZone)).toBe(valid);
  });
});
