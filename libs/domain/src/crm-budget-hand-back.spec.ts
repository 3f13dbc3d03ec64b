import { CRM_TIER_LIMITS, type CrmLimits } from './crm-budget';
import { handBackPermits } from './crm-budget-hand-back';
import { emptyBudgetState, type CrmBudgetState } from './crm-budget-rules';

const SLOT = 500;
const T = Date.UTC(2025, 5, 1, 12, 0, 0); // 2025-06-01T12:00:00Z, a slot start
const limits: CrmLimits = { ...CRM_TIER_LIMITS.starter, searchPerSecond: 4 };
const state = (overrides: Partial<CrmBudgetState> = {}): CrmBudgetState => ({ ...emptyBudgetState(), day: '2025-06-01', ...overrides });

describe('handing back unused CRM permits', () => {
  it.each([
    [
      'permits granted after the CRM last corrected the budget',
      state({ grants: [{ at: T, n: 5 }], usedToday: 5, correctedAt: T - 1_000 }),
      { grantedAt: T + 10, kind: 'request' as const, count: 2 },
      state({ grants: [{ at: T, n: 3 }], usedToday: 3, correctedAt: T - 1_000 }),
    ],
    [
      'request permits of the current slot',
      state({
        grants: [
          { at: T - SLOT, n: 4 },
          { at: T, n: 5 },
        ],
        usedToday: 9,
      }),
      { grantedAt: T + 120, kind: 'request' as const, count: 3 },
      state({
        grants: [
          { at: T - SLOT, n: 4 },
          { at: T, n: 2 },
        ],
        usedToday: 6,
      }),
    ],
    [
      'search permits: off the request slot and the 100 ms search slot',
      state({
        grants: [{ at: T, n: 5 }],
        searchGrants: [
          { at: T + 100, n: 2 },
          { at: T + 200, n: 1 },
        ],
        usedToday: 5,
      }),
      { grantedAt: T + 150, kind: 'search' as const, count: 1 },
      state({
        grants: [{ at: T, n: 4 }],
        searchGrants: [
          { at: T + 100, n: 1 },
          { at: T + 200, n: 1 },
        ],
        usedToday: 4,
      }),
    ],
    [
      'more than the slot holds (another replica handed back first)',
      state({ grants: [{ at: T, n: 1 }], usedToday: 1 }),
      { grantedAt: T, kind: 'request' as const, count: 3 },
      state({ grants: [{ at: T, n: 0 }], usedToday: 0 }),
    ],
    [
      'permits granted yesterday: the day keeps its count',
      state({ grants: [{ at: T, n: 5 }], day: '2025-06-02', usedToday: 7 }),
      { grantedAt: T, kind: 'request' as const, count: 2 },
      state({ grants: [{ at: T, n: 3 }], day: '2025-06-02', usedToday: 7 }),
    ],
  ])('when a replica hands back %s, then only what was unused is taken off', (_case, before, handBack, after) => {
    expect(handBackPermits(before, { ...handBack, limits, slotMs: SLOT })).toEqual({ state: after, changed: true });
  });

  it.each([
    ['no permit', state({ grants: [{ at: T, n: 5 }] }), T, 0],
    ['a slot the window no longer holds', state({ grants: [{ at: T, n: 5 }] }), T - 20_000, 2],
    ['a slot already at 0', state({ grants: [{ at: T, n: 0 }] }), T, 2],
    ['permits granted before the CRM corrected the budget', state({ grants: [{ at: T, n: 5 }], correctedAt: T + 100 }), T + 50, 2],
    ['permits granted as the CRM corrected the budget', state({ grants: [{ at: T, n: 5 }], correctedAt: T + 50 }), T + 50, 2],
  ])('when what is handed back is %s, then nothing changes', (_case, before, grantedAt, count) => {
    expect(handBackPermits(before, { grantedAt, kind: 'request', count, limits, slotMs: SLOT })).toEqual({ state: before, changed: false });
  });
});
