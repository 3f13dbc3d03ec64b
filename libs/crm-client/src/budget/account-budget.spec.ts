import { CrmBudgetPaused, emptyBudgetState, type CrmLimits } from '@ecomm-sync/domain';
import { AccountBudget, lostRaceBackoffMs } from './account-budget';
import type { BudgetStore } from './budget-lane';
import type { CrmBudgetDoc } from './crm-budget.model';

const limits: CrmLimits = { burstPer10s: 100, dailyCap: null, timeZone: 'UTC', searchPerSecond: null };

/** A budget store with a fixed clock and 250-ms slots; the test gives its sleep, reads and writes. */
const storeOf = (parts: Pick<BudgetStore, 'sleep' | 'read' | 'write'>): BudgetStore => ({
  stats: { reads: 0, writes: 0, lostRaces: 0, leased: 0, taken: 0, handedBack: 0, contended: 0 },
  clock: () => Date.parse('2026-12-06T12:00:00Z'),
  slotMs: 250,
  marginMs: 750,
  leaseSize: 5,
  defaultMaxWaitMs: 30_000,
  ...parts,
});

describe('the CRM budget after a lost compare-and-set', () => {
  it.each([
    // round, slot, random, wait
    [1, 250, 1, 2],
    [2, 250, 1, 4],
    [5, 250, 1, 32],
    [7, 250, 1, 128],
    [8, 250, 1, 250],
    [49, 250, 1, 250],
    [3, 100, 0.5, 4],
    [9, 100, 0.5, 50],
    [6, 250, 0, 0],
  ])('when round %i of a %i-ms slot is lost with a random draw of %d, then the writer waits %d ms', (round, slotMs, random, wait) => {
    expect(lostRaceBackoffMs(round, slotMs, () => random)).toBe(wait);
  });

  it('when other writers win the first twelve rounds, then the lease waits longer after each, up to a slot, and is granted', async () => {
    let stored: CrmBudgetDoc | null = null;
    let contended = 12;
    const slept: number[] = [];
    const store = storeOf({
      sleep: async (ms) => void slept.push(ms),
      read: async () => stored && structuredClone(stored),
      write: async (key, base, state) => {
        if (contended > 0) {
          // Another replica wrote between this one's read and its write (what it wrote does not matter here).
          contended--;
          stored = { ...emptyBudgetState(), _id: key, version: (stored?.version ?? 0) + 1 };
          return null;
        }
        if ((stored?.version ?? 0) !== (base?.version ?? 0)) return null;
        stored = { ...state, _id: key, version: (base?.version ?? 0) + 1 };
        return structuredClone(stored);
      },
    });
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      await expect(new AccountBudget(store, 'contended', limits).take('request')).resolves.toMatchObject({ sendBy: expect.any(Number) });
    } finally {
      jest.restoreAllMocks();
    }
    expect(slept.slice(0, 12)).toEqual([1, 2, 4, 8, 16, 32, 64, 125, 125, 125, 125, 125]);
    // One lease written, of one permit (the one caller waiting), counted once however many rounds it took.
    expect(store.stats).toMatchObject({ leased: 1, taken: 1 });
  });

  it('when other writers win every round, then the lease waits for the next slot without waiting after the last round, and a caller who cannot wait is refused as rate-limited', async () => {
    let version = 0;
    const slept: number[] = [];
    const store = storeOf({
      sleep: async (ms) => void slept.push(ms),
      read: async () => ({ ...emptyBudgetState(), _id: 'lost', version }),
      write: async () => {
        version++; // another replica wrote first, every time
        return null;
      },
    });

    const refused = await new AccountBudget(store, 'lost', limits).take('request', { maxWaitMs: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CrmBudgetPaused);
    expect(refused).toMatchObject({ reason: 'rate-limited', until: store.clock() + 250 });
    expect(slept).toHaveLength(49);
    expect(store.stats).toMatchObject({ contended: 1, leased: 0, taken: 0 });
  });

  it('when other writers win every round of a lease, then a caller who can wait gets a permit in a later slot', async () => {
    let now = Date.parse('2026-12-06T12:00:00Z');
    let stored: CrmBudgetDoc | null = null;
    let contended = 60; // more than a lease's rounds
    const store: BudgetStore = {
      ...storeOf({
        // The clock moves when a wait ends, as a timer's would (not when it starts).
        sleep: (ms) => new Promise<void>((resolve) => setImmediate(() => resolve(void (now += ms)))),
        read: async () => stored && structuredClone(stored),
        write: async (key, base, state) => {
          if (contended-- > 0 || (stored?.version ?? 0) !== (base?.version ?? 0)) {
            stored = { ...emptyBudgetState(), _id: key, version: (stored?.version ?? 0) + 1 };
            return null;
          }
          stored = { ...state, _id: key, version: (base?.version ?? 0) + 1 };
          return structuredClone(stored);
        },
      }),
      clock: () => now,
    };

    const permit = await new AccountBudget(store, 'waits', limits).take('request', { maxWaitMs: 10_000 });
    expect(permit.sendBy).toBeGreaterThan(Date.parse('2026-12-06T12:00:00.250Z'));
    expect(store.stats.contended).toBe(1);
  });
});
