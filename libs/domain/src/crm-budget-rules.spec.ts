import { CRM_TIER_LIMITS, type CrmLimits } from './crm-budget';
import { localDay, nextDailyReset } from './crm-day';
import { readRateLimitAnswer } from './crm-rate-limit-answer';
import { correctBudget, emptyBudgetState, grantPermits, rollBudget, type CrmBudgetState, type GrantOutcome } from './crm-budget-rules';
import { addToSlot, nextFreeAt, requestWindow, searchWindow, usedInWindow, windowStart } from './crm-budget-window';

const SLOT = 500;
const T = Date.UTC(2025, 5, 1, 12, 0, 0); // 2025-06-01T12:00:00Z, a slot start
const starter: CrmLimits = CRM_TIER_LIMITS.starter;
const state = (overrides: Partial<CrmBudgetState> = {}): CrmBudgetState => ({ ...emptyBudgetState(), day: '2025-06-01', ...overrides });
const utc = (iso: string) => Date.parse(iso);

describe('CRM budget rules', () => {
  it.each([
    ['the request window, 500 ms slots', requestWindow(500), T + 250, T - 10_500],
    ['the request window, 250 ms slots', requestWindow(250), T, T - 10_250],
    ['the request window, 250 ms slots and 750 ms of margin', requestWindow(250, 750), T + 100, T - 10_750],
    ['the request window, 500 ms slots and 600 ms of margin (rounded up to slots)', requestWindow(500, 600), T, T - 11_000],
    ['the search window, 500 ms slots (100 ms search slots)', searchWindow(500), T + 50, T - 1_100],
    ['the search window, 50 ms slots', searchWindow(50), T + 60, T + 50 - 1_050],
  ])('when the window is %s, then it counts from the slot start a window and a margin back', (_case, window, now, expected) => {
    expect(windowStart(now, window)).toBe(expected);
  });

  it.each([
    ['no grants', [], T, 0],
    [
      'grants in the current and the oldest counted slot',
      [
        { at: T - 10_500, n: 5 },
        { at: T, n: 3 },
      ],
      T + 499,
      8,
    ],
    [
      'a grant one slot older than the window and its margin',
      [
        { at: T - 11_000, n: 5 },
        { at: T, n: 3 },
      ],
      T,
      3,
    ],
    [
      'the oldest slot after the clock moved on a slot',
      [
        { at: T - 10_500, n: 5 },
        { at: T, n: 3 },
      ],
      T + 500,
      3,
    ],
  ])('when the window holds %s, then usedInWindow counts only its slots', (_case, grants, now, expected) => {
    expect(usedInWindow(grants, now, requestWindow(SLOT))).toBe(expected);
  });

  it.each([
    ['room left', [{ at: T, n: 19 }], 20, T + 100, T + 100],
    [
      'a full window whose oldest slot frees enough',
      [
        { at: T - 6_000, n: 15 },
        { at: T, n: 5 },
      ],
      20,
      T + 100,
      T - 6_000 + 11_000,
    ],
    [
      'a full window that needs two slots to free',
      [
        { at: T - 6_000, n: 1 },
        { at: T - 5_000, n: 1 },
        { at: T, n: 19 },
      ],
      20,
      T,
      T - 5_000 + 11_000,
    ],
    ['an over-full window (a correction)', [{ at: T - 1_000, n: 30 }], 20, T, T - 1_000 + 11_000],
    ['a limit of zero', [], 0, T + 100, T + 500],
  ])('when %s, then nextFreeAt is the first slot with room for one', (_case, grants, limit, now, expected) => {
    expect(nextFreeAt(grants, now, requestWindow(SLOT), limit)).toBe(expected);
  });

  it.each([
    ['an empty slot', [], T + 10, 3, [{ at: T, n: 3 }]],
    ['a slot with grants', [{ at: T, n: 2 }], T + 499, 3, [{ at: T, n: 5 }]],
    [
      'slots the window no longer counts',
      [
        { at: T - 11_000, n: 9 },
        { at: T - 500, n: 1 },
      ],
      T,
      1,
      [
        { at: T - 500, n: 1 },
        { at: T, n: 1 },
      ],
    ],
  ])('when adding to %s, then addToSlot keeps the counted slots and adds to the current one', (_case, grants, now, count, expected) => {
    expect(addToSlot(grants, now, count, requestWindow(SLOT))).toEqual(expected);
  });

  it.each([
    ['UTC at noon', T, 'UTC', '2025-06-01'],
    ['New York just before its midnight', utc('2025-06-02T03:59:59.999Z'), 'America/New_York', '2025-06-01'],
    ['New York at its midnight', utc('2025-06-02T04:00:00Z'), 'America/New_York', '2025-06-02'],
    ['Kiritimati (UTC+14) on the UTC day before', utc('2025-06-01T10:00:00Z'), 'Pacific/Kiritimati', '2025-06-02'],
  ])('when it is %s, then localDay names the local day', (_case, now, timeZone, expected) => {
    expect(localDay(now, timeZone)).toBe(expected);
  });

  it.each([
    ['UTC at noon', T, 'UTC', '2025-06-02T00:00:00.000Z'],
    ['UTC at midnight itself', utc('2025-06-02T00:00:00Z'), 'UTC', '2025-06-03T00:00:00.000Z'],
    ['New York the day before DST starts', utc('2025-03-08T12:00:00Z'), 'America/New_York', '2025-03-09T05:00:00.000Z'],
    ['New York on the 23-hour day DST starts', utc('2025-03-09T12:00:00Z'), 'America/New_York', '2025-03-10T04:00:00.000Z'],
    ['New York on the 25-hour day DST ends', utc('2025-11-02T12:00:00Z'), 'America/New_York', '2025-11-03T05:00:00.000Z'],
    ['Santiago, where DST skips the midnight (day starts 01:00)', utc('2025-09-06T12:00:00Z'), 'America/Santiago', '2025-09-07T04:00:00.000Z'],
    ['London in the night DST starts', utc('2025-03-30T00:30:00Z'), 'Europe/London', '2025-03-30T23:00:00.000Z'],
    ['Kolkata (UTC+5:30) one millisecond before midnight', utc('2025-06-01T18:29:59.999Z'), 'Asia/Kolkata', '2025-06-01T18:30:00.000Z'],
    ['Kiritimati (UTC+14)', utc('2025-06-01T00:00:00Z'), 'Pacific/Kiritimati', '2025-06-01T10:00:00.000Z'],
  ])('when it is %s, then nextDailyReset is the first instant of the next local day', (_case, now, timeZone, expected) => {
    expect(new Date(nextDailyReset(now, timeZone)).toISOString()).toBe(expected);
  });

  it.each([
    [
      'a 200 with window headers',
      200,
      { 'x-hubspot-ratelimit-max': '100', 'x-hubspot-ratelimit-remaining': '97', 'x-hubspot-ratelimit-interval-milliseconds': '10000' },
      undefined,
      { policy: null, max: 100, remaining: 97, intervalMs: 10_000 },
    ],
    [
      'a 200 with daily headers',
      200,
      { 'x-hubspot-ratelimit-daily': '250000', 'x-hubspot-ratelimit-daily-remaining': '12' },
      undefined,
      { daily: 250_000, dailyRemaining: 12 },
    ],
    [
      'a ten-secondly 429',
      429,
      {},
      { errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING', message: 'You have reached your ten secondly limit.' },
      { policy: 'ten-secondly', message: 'You have reached your ten secondly limit.' },
    ],
    ['a daily 429', 429, {}, { policyName: 'DAILY' }, { policy: 'daily' }],
    ['a secondly 429', 429, {}, { policyName: 'SECONDLY' }, { policy: 'secondly' }],
    ['a 429 without a body', 429, {}, undefined, { policy: 'ten-secondly', message: null }],
    ['Retry-After in seconds', 429, { 'retry-after': '3' }, undefined, { retryAfterMs: 3_000 }],
    ['Retry-After as an HTTP date', 429, { 'retry-after': new Date(T + 5_000).toUTCString() }, undefined, { retryAfterMs: 5_000 }],
    ['unreadable headers', 200, { 'x-hubspot-ratelimit-max': 'lots', 'retry-after': 'later' }, undefined, { max: null, retryAfterMs: null }],
  ])('when the CRM answers %s, then readRateLimitAnswer reads it', (_case, status, headers, body, expected) => {
    expect(readRateLimitAnswer(status, headers, body, T)).toMatchObject(expected);
  });

  it.each([
    ['the same day', state({ usedToday: 7 }), T, { day: '2025-06-01', usedToday: 7 }],
    ['a new day', state({ usedToday: 7 }), T + 12 * 3_600_000, { day: '2025-06-02', usedToday: 0 }],
    [
      'a pause that has passed',
      state({ pausedUntil: T, pauseReason: 'daily-cap', blockedUntil: T - 1 }),
      T,
      { pausedUntil: null, pauseReason: null, blockedUntil: null },
    ],
    ['a pause still running', state({ pausedUntil: T + 1, pauseReason: 'daily-cap' }), T, { pausedUntil: T + 1, pauseReason: 'daily-cap' }],
  ])('when the budget is read on %s, then rollBudget resets what has expired', (_case, before, now, expected) => {
    expect(rollBudget(before, now, 'UTC')).toMatchObject(expected);
  });

  const ask = (
    before: CrmBudgetState,
    want: number,
    overrides: { now?: number; kind?: 'request' | 'search'; limits?: Partial<CrmLimits> } = {},
  ): GrantOutcome =>
    grantPermits(before, { now: overrides.now ?? T + 100, kind: overrides.kind ?? 'request', want, limits: { ...starter, ...overrides.limits }, slotMs: SLOT });

  it.each<[string, () => GrantOutcome, Record<string, unknown>]>([
    ['an empty budget', () => ask(state(), 5), { outcome: 'granted', count: 5, validUntil: T + 500 }],
    ['a window with room for two', () => ask(state({ grants: [{ at: T - 3_000, n: 98 }] }), 5), { outcome: 'granted', count: 2 }],
    ['a full window', () => ask(state({ grants: [{ at: T - 3_000, n: 100 }] }), 5), { outcome: 'wait', until: T - 3_000 + 11_000 }],
    ['requests blocked by a 429', () => ask(state({ blockedUntil: T + 4_000 }), 1), { outcome: 'wait', until: T + 4_000 }],
    ['a lower limit the CRM announced', () => ask(state({ crmMax: 50, grants: [{ at: T, n: 50 }] }), 1), { outcome: 'wait', until: T + 11_000 }],
    ['the daily cap reached', () => ask(state({ usedToday: 250_000 }), 1), { outcome: 'paused', reason: 'daily-cap', until: utc('2025-06-02T00:00:00Z') }],
    ['one request left for the day', () => ask(state({ usedToday: 249_999 }), 5), { outcome: 'granted', count: 1 }],
    ['yesterday spent the cap', () => ask(state({ day: '2025-05-31', usedToday: 250_000 }), 5), { outcome: 'granted', count: 5 }],
    ['no daily cap', () => ask(state({ usedToday: 10_000_000 }), 1, { limits: { dailyCap: null } }), { outcome: 'granted', count: 1 }],
    [
      'a daily pause still running',
      () => ask(state({ pausedUntil: T + 60_000, pauseReason: 'daily-cap' }), 1),
      { outcome: 'paused', reason: 'daily-cap', until: T + 60_000 },
    ],
    ['a search with an empty budget', () => ask(state(), 5, { kind: 'search' }), { outcome: 'granted', count: 4, validUntil: T + 200 }],
    [
      'a search after four in the last second',
      () => ask(state({ searchGrants: [{ at: T - 500, n: 4 }] }), 1, { kind: 'search' }),
      { outcome: 'wait', until: T - 500 + 1_200 },
    ],
    ['a search blocked by a secondly 429', () => ask(state({ searchBlockedUntil: T + 900 }), 1, { kind: 'search' }), { outcome: 'wait', until: T + 900 }],
    ['a request while searches are blocked', () => ask(state({ searchBlockedUntil: T + 900 }), 1), { outcome: 'granted', count: 1 }],
    [
      'a search without a search limit',
      () => ask(state(), 5, { kind: 'search', limits: { searchPerSecond: null } }),
      { outcome: 'granted', count: 5, validUntil: T + 500 },
    ],
  ])('when asking for permits with %s, then grantPermits answers', (_case, outcome, expected) => {
    expect(outcome()).toMatchObject(expected);
  });

  it('when permits are granted, then they count in the window, the search window and the day', () => {
    const granted = ask(state({ usedToday: 10 }), 3, { kind: 'search' });
    if (granted.outcome !== 'granted') throw new Error(`expected a grant, got ${granted.outcome}`);
    expect(granted.state).toMatchObject({ grants: [{ at: T, n: 3 }], searchGrants: [{ at: T + 100, n: 3 }], usedToday: 13 });
  });

  const observe = (before: CrmBudgetState, status: number, headers: Record<string, string>, body?: unknown, limits: Partial<CrmLimits> = {}) =>
    correctBudget(before, { now: T + 100, status, headers, body, limits: { ...starter, ...limits }, slotMs: SLOT });
  const window = (max: number, remaining: number) => ({
    'x-hubspot-ratelimit-max': String(max),
    'x-hubspot-ratelimit-remaining': String(remaining),
    'x-hubspot-ratelimit-interval-milliseconds': '10000',
  });

  it.each<[string, () => { state: CrmBudgetState; changed: boolean }, boolean, Partial<CrmBudgetState>]>([
    ['a 200 without rate-limit headers', () => observe(state({ grants: [{ at: T, n: 10 }] }), 200, {}), false, { grants: [{ at: T, n: 10 }] }],
    [
      'a 200 counting fewer than we granted',
      () => observe(state({ grants: [{ at: T - 2_000, n: 10 }] }), 200, window(100, 95)),
      false,
      { grants: [{ at: T - 2_000, n: 10 }], correctedAt: null },
    ],
    [
      'a 200 counting more than we granted (another app)',
      () => observe(state({ grants: [{ at: T - 2_000, n: 10 }] }), 200, window(100, 60)),
      true,
      {
        grants: [
          { at: T - 2_000, n: 10 },
          { at: T, n: 30 },
        ],
        correctedAt: T + 100,
      },
    ],
    ['a lower Max than configured', () => observe(state(), 200, window(50, 50)), true, { crmMax: 50 }],
    [
      'headers about another interval',
      () => observe(state(), 200, { ...window(4, 0), 'x-hubspot-ratelimit-interval-milliseconds': '1000' }),
      false,
      { crmMax: null, grants: [] },
    ],
    [
      'daily headers counting more than we did',
      () => observe(state({ usedToday: 100 }), 200, { 'x-hubspot-ratelimit-daily': '250000', 'x-hubspot-ratelimit-daily-remaining': '1000' }),
      true,
      { usedToday: 249_000, correctedAt: T + 100 },
    ],
    [
      'daily headers counting less than we did',
      () => observe(state({ usedToday: 100 }), 200, { 'x-hubspot-ratelimit-daily': '250000', 'x-hubspot-ratelimit-daily-remaining': '249950' }),
      false,
      { usedToday: 100 },
    ],
    [
      'a ten-secondly 429 without Retry-After',
      () => observe(state({ grants: [{ at: T - 2_000, n: 10 }] }), 429, {}, { policyName: 'TEN_SECONDLY_ROLLING' }),
      true,
      {
        blockedUntil: T + 100 + 10_000,
        grants: [
          { at: T - 2_000, n: 10 },
          { at: T, n: 90 },
        ],
      },
    ],
    [
      'a ten-secondly 429 with Retry-After',
      () => observe(state({ grants: [{ at: T, n: 10 }] }), 429, { 'retry-after': '2' }, { policyName: 'TEN_SECONDLY_ROLLING' }),
      true,
      { blockedUntil: T + 2_100, grants: [{ at: T, n: 10 }] },
    ],
    [
      'a ten-secondly 429 already accounted for',
      () => observe(state({ blockedUntil: T + 20_000, grants: [{ at: T, n: 100 }] }), 429, {}, { policyName: 'TEN_SECONDLY_ROLLING' }),
      false,
      { blockedUntil: T + 20_000 },
    ],
    [
      'a daily 429',
      () => observe(state({ usedToday: 5 }), 429, {}, { policyName: 'DAILY' }),
      true,
      { pausedUntil: utc('2025-06-02T00:00:00Z'), pauseReason: 'daily-cap', usedToday: 250_000 },
    ],
    [
      'a daily 429 with Retry-After (the CRM says when its day turns)',
      () => observe(state(), 429, { 'retry-after': '3600' }, { policyName: 'DAILY' }),
      true,
      { pausedUntil: T + 100 + 3_600_000, pauseReason: 'daily-cap' },
    ],
    [
      'a daily 429 in New York',
      () => observe(state(), 429, {}, { policyName: 'DAILY' }, { timeZone: 'America/New_York' }),
      true,
      { pausedUntil: utc('2025-06-02T04:00:00Z') },
    ],
    ['a secondly 429 (search)', () => observe(state(), 429, {}, { policyName: 'SECONDLY' }), true, { searchBlockedUntil: T + 1_100, blockedUntil: null }],
  ])('when the CRM answers %s, then correctBudget corrects the budget only as needed', (_case, corrected, changed, expected) => {
    const result = corrected();
    expect(result.changed).toBe(changed);
    expect(result.state).toMatchObject(expected);
  });
});
