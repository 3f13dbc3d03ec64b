import { CRM_TIER_LIMITS, type CrmLimits } from './crm-budget';
import { handBackPermits } from './crm-budget-hand-back';
import { emptyBudgetState, grantPermits, paceIntervalMs, pacedRoom, PACE_TOLERANCE_MS, type CrmBudgetState } from './crm-budget-rules';
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

  it.each<[string, number | null, number, number, number]>([
    ['an account never paced gets a second of its rate at once', null, T, 11, T - PACE_TOLERANCE_MS],
    ['an account idle for long gets no more than a second of its rate (no credit piles up)', T - 60_000, T, 11, T - PACE_TOLERANCE_MS],
    ['an account half a second ahead of its pace gets the rest of the second', T + 500, T, 6, T - 500],
    ['an account exactly a second ahead gets one more', T + 1_000, T, 1, T],
    ['an account more than a second ahead gets none until the pace catches up', T + 1_050, T, 0, T + 50],
  ])('when %s', (_case, paceAt, now, room, until) => {
    expect(pacedRoom(paceAt, now, 100)).toEqual({ room, until });
  });

  it.each<[string, number | null, number, number]>([
    ['a small account never paced gets a whole lease at once, though that is more than a second of its rate', null, 5, T - 2_200],
    ['a small account a lease ahead of its pace gets one more', T + 2_200, 1, T],
    ['a small account further ahead gets none', T + 2_300, 0, T + 100],
  ])('when %s', (_case, paceAt, room, until) => {
    // 20 per 10 s: one permit per 550 ms.
    expect(pacedRoom(paceAt, T, 550)).toEqual({ room, until });
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
