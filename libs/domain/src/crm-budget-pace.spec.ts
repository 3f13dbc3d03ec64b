import { CRM_TIER_LIMITS, type CrmLimits } from './crm-budget';
import { handBackPermits } from './crm-budget-hand-back';
import { paceDue, paceIntervalMs, pacedRoom, PACE_SKEW_MS, PACE_TOLERANCE_MS } from './crm-budget-pace';
import { emptyBudgetState, grantPermits, type CrmBudgetState } from './crm-budget-rules';
import { requestWindow, usedInWindow } from './crm-budget-window';

const SLOT = 500;
const T = Date.UTC(2025, 5, 1, 12, 0, 0); // 2025-06-01T12:00:00Z, a slot start
const limits: CrmLimits = { ...CRM_TIER_LIMITS.starter, burstPer10s: 190, dailyCap: null };
const state = (overrides: Partial<CrmBudgetState> = {}): CrmBudgetState => ({ ...emptyBudgetState(), day: '2025-06-01', ...overrides });
// 190 permits per 11 s counted (10 s, the slot it overlaps and a slot of margin): one per 57.9 ms.
const INTERVAL = 11_000 / 190;

describe('the even pace of CRM permits', () => {
  it('when the window is 10 s in slots of 500 ms with a slot of margin, then one permit is due every 11 s ÷ the limit', () => {
    expect(paceIntervalMs(requestWindow(SLOT), 190)).toBeCloseTo(INTERVAL, 2);
    expect(paceIntervalMs(requestWindow(SLOT, 1_000), 100)).toBe(115);
  });

  it.each<[string, number | null, number]>([
    ['an account never paced gets a second of its rate at once', null, 11],
    ['an account idle for long gets no more than a second of its rate (no credit piles up)', T - 60_000, 11],
    ['an account half a second ahead of its pace gets the rest of the second', T + 500, 6],
    ['an account exactly a second ahead gets one more', T + 1_000, 1],
    ['an account whose stored pace no grant could leave (a clock far ahead wrote it) gets a second of its rate', T + 60_000, 11],
  ])('when %s', (_case, paceAt, room) => {
    expect(pacedRoom(paceAt, T, 100).room).toBe(room);
  });

  it('when an account is more than a second ahead, then it gets none until the pace is a second ahead again', () => {
    expect(pacedRoom(T + 1_050, T, 100)).toEqual({ room: 0, until: T + 50 });
  });

  it.each<[string, number | null, number]>([
    ['no pace stored', null, T],
    ['a pace in the past', T - 5_000, T],
    // A grant leaves the pace at most the tolerance and an interval (100) ahead; the skew allowed comes on top.
    ['a pace ahead within what a grant leaves and the skew allowed', T + PACE_TOLERANCE_MS + 100 + PACE_SKEW_MS, T + 2_100],
    ['a pace beyond that', T + PACE_TOLERANCE_MS + 100 + PACE_SKEW_MS + 1, T],
  ])('when the budget has %s, then the next permit is due at the right time', (_case, paceAt, due) => {
    expect(paceDue(paceAt, T, 100)).toBe(due);
  });

  it.each<[string, number | null, number]>([
    ['a small account never paced gets a whole lease at once, though that is more than a second of its rate', null, 5],
    ['a small account a lease ahead of its pace gets one more', T + 2_200, 1],
    ['a small account further ahead gets none', T + 2_300, 0],
  ])('when %s', (_case, paceAt, room) => {
    // 20 per 10 s: one permit per 550 ms.
    expect(pacedRoom(paceAt, T, 550).room).toBe(room);
  });

  it('when the account is built-in (100-ms slots, 300 ms of margin) and the CRM announced a lower limit, then the pace follows the window it counts and that limit', () => {
    const builtin = { now: T, kind: 'request' as const, want: 50, limits, slotMs: 100, marginMs: 300 };
    const full = grantPermits(state(), builtin);
    const lowered = grantPermits(state({ crmMax: 100 }), builtin);

    if (full.outcome !== 'granted' || lowered.outcome !== 'granted') throw new Error('granted');
    // 10.4 s counted: 190 → one per 54.7 ms (19 at once); 100 → one per 104 ms (10 at once).
    expect(full.count).toBe(19);
    expect(full.state.paceAt! - T).toBeCloseTo(19 * (10_400 / 190), 2);
    expect(lowered.count).toBe(10);
    expect(lowered.state.paceAt! - T).toBeCloseTo(10 * 104, 2);
  });

  it('when searches take permits, then they use up the same pace as requests', () => {
    const searched = grantPermits(state(), { now: T, kind: 'search', want: 4, limits: { ...limits, searchPerSecond: 4 }, slotMs: SLOT });
    if (searched.outcome !== 'granted') throw new Error('granted');

    const next = grantPermits(searched.state, { now: T, kind: 'request', want: 50, limits, slotMs: SLOT });

    expect(next).toMatchObject({ outcome: 'granted', count: 18 - 4 });
  });

  it('when the window is full and the pace too, then the caller waits for the later of the two', () => {
    const outcome = grantPermits(state({ grants: [{ at: T - 5_000, n: 190 }], paceAt: T + 3_000 }), { now: T, kind: 'request', want: 1, limits, slotMs: SLOT });

    // The window frees its 190 at T - 5,000 + 11,000; the pace would allow one at T + 2,000.
    expect(outcome).toEqual({ outcome: 'wait', until: T + 6_000 });
  });

  it('when a fresh account asks for more than a second of its rate, then it is granted a second of it and the pace moves on by what it got', () => {
    const outcome = grantPermits(state(), { now: T, kind: 'request', want: 50, limits, slotMs: SLOT });

    expect(outcome).toMatchObject({ outcome: 'granted', count: 18 });
    if (outcome.outcome !== 'granted') throw new Error('granted');
    expect(outcome.state.paceAt).toBeCloseTo(T + 18 * INTERVAL, 2);
  });

  it('when grants ran a second ahead of the pace, then the next one waits for the pace, though the window has room', () => {
    const outcome = grantPermits(state({ grants: [{ at: T, n: 18 }], paceAt: T + 1_100 }), { now: T + 10, kind: 'request', want: 5, limits, slotMs: SLOT });

    expect(outcome).toEqual({ outcome: 'wait', until: T + 100 });
  });

  it('when replicas ask as fast as they can for a minute, then permits come evenly: never over the window, no burst over two seconds of the rate, and the minute at the rate the window sustains', () => {
    let budget = state();
    const granted: { at: number; n: number }[] = [];
    for (let now = T; now < T + 60_000; now += 10) {
      const outcome = grantPermits(budget, { now, kind: 'request', want: 5, limits, slotMs: SLOT });
      if (outcome.outcome !== 'granted' || outcome.count === 0) continue;
      budget = outcome.state;
      granted.push({ at: now, n: outcome.count });
    }
    const within = (from: number, ms: number) => granted.filter(({ at }) => at >= from && at < from + ms).reduce((sum, { n }) => sum + n, 0);

    for (let from = T; from < T + 60_000; from += 100) {
      expect(within(from, 10_000)).toBeLessThanOrEqual(190);
      expect(within(from, 1_000)).toBeLessThanOrEqual(Math.ceil((2 * 1_000) / INTERVAL));
    }
    // 60 s at one per INTERVAL, and the first second's tolerance.
    expect(within(T, 60_000)).toBeGreaterThanOrEqual(Math.floor(60_000 / INTERVAL));
    expect(usedInWindow(budget.grants, T + 60_000, requestWindow(SLOT))).toBeLessThanOrEqual(190);
  });

  it('when a built-in account hands back unused permits, then the pace moves back by their share of its own window', () => {
    const interval = 10_400 / 190;
    const { state: after } = handBackPermits(state({ grants: [{ at: T, n: 5 }], usedToday: 5, paceAt: T + 5 * interval }), {
      grantedAt: T,
      kind: 'request',
      count: 3,
      limits,
      slotMs: 100,
      marginMs: 300,
    });

    expect(after.paceAt).toBeCloseTo(T + 2 * interval, 2);
  });

  it('when unused permits are handed back, then the pace moves back by their share', () => {
    const { state: after } = handBackPermits(state({ grants: [{ at: T, n: 5 }], usedToday: 5, paceAt: T + 5 * INTERVAL }), {
      grantedAt: T,
      kind: 'request',
      count: 3,
      limits,
      slotMs: SLOT,
    });

    expect(after.paceAt).toBeCloseTo(T + 2 * INTERVAL, 2);
    expect(after.grants).toEqual([{ at: T, n: 2 }]);
  });

  it('when a budget stored before pacing is handed permits back, then it stays without a pace', () => {
    const before = state({ grants: [{ at: T, n: 5 }], usedToday: 5 });
    delete before.paceAt;

    expect(handBackPermits(before, { grantedAt: T, kind: 'request', count: 3, limits, slotMs: SLOT }).state).not.toHaveProperty('paceAt');
  });
});
