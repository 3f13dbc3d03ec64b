import { decide, limitHeaders, nextMidnight, RollingWindow, type HostedLimits, type Verdict } from '../domain/hosted-limits';

const TEN_SECONDS_MS = 10_000;
const SECOND_MS = 1_000;

export interface SecondCount {
  /** Epoch seconds. */
  second: number;
  /** Requests answered in that second, the refused ones included. */
  answered: number;
  /** Of those, the ones refused with 429. */
  limited: number;
}

export interface AccountUsage {
  perSecond: SecondCount[];
  /** The most requests answered (429s included) in any rolling 10 000 ms, measured exactly. */
  maxIn10s: number;
  totals: { answered: number; limited: number };
  daily: { used: number; nextResetAt: number } | null;
}

interface AccountState {
  /** Admitted requests in the rolling window, and admitted searches in the last second. */
  burst: RollingWindow;
  searches: RollingWindow;
  /** Every answered request in the last 10 s (by arrival): its peak is maxIn10s. */
  answered: RollingWindow;
  maxIn10s: number;
  daily?: { used: number; resetAt: number; setBy: string };
  perSecond: Map<number, SecondCount>;
  totals: { answered: number; limited: number };
}

/**
 * What each account used, in this process's memory (decision 0021): exact rolling windows (every
 * admitted time is kept while it is inside its window), the daily count with its next reset, and
 * per-second counts of answered requests for the usage endpoint, kept for `retentionSeconds`.
 * One CRM process is the emulation's scope: two processes would each grant the whole budget.
 */
export class RequestLedger {
  private readonly accounts = new Map<number, AccountState>();

  constructor(
    readonly clock: () => number = Date.now,
    private readonly retentionSeconds = 86_400,
  ) {}

  /**
   * Counts a request of a limited account, admitted or refused, with the headers to answer it with.
   * It counts at `arrivedAt` (default: now), when the request reached the server: as the hosted CRM
   * counts at its edge, not after this process read the body and the account. A request without a
   * daily limit (`daily` false: an OAuth call) is neither refused nor counted by the daily cap.
   */
  admit(
    portalId: number,
    limits: HostedLimits,
    search: boolean,
    arrivedAt?: number,
    { daily: dailyLimited = true }: { daily?: boolean } = {},
  ): { verdict: Verdict; headers: Record<string, string> } {
    const now = arrivedAt ?? this.clock();
    const state = this.state(portalId);
    const daily = dailyLimited ? this.daily(state, limits, now) : null;
    const verdict = decide(
      limits,
      {
        now,
        // Requests are read out of order: every window that holds this one counts.
        inWindow: state.burst.busiestAround(now, limits.intervalMs),
        oldestInWindow: state.burst.oldest(now, limits.intervalMs),
        dailyUsed: daily?.used ?? null,
        dailyResetAt: daily?.resetAt ?? now,
        searchesInSecond: search ? state.searches.busiestAround(now, SECOND_MS) : 0,
        oldestSearch: search ? state.searches.oldest(now, SECOND_MS) : undefined,
      },
      search,
    );
    if (verdict.admitted) {
      state.burst.add(now);
      if (search) state.searches.add(now);
      if (daily) daily.used++;
    }
    this.countAnswered(state, now, !verdict.admitted);
    return { verdict, headers: limitHeaders(limits, { inWindow: state.burst.count(now, limits.intervalMs), dailyUsed: daily?.used ?? null }) };
  }

  /** Sets the daily count to 0 now; the next reset is at `nextResetAt`, or else at the next midnight of the account. */
  resetDaily(portalId: number, timeZone: string, nextResetAt?: number): { dailyUsed: number; nextResetAt: number } {
    const now = this.clock();
    const state = this.state(portalId);
    state.daily =
      nextResetAt === undefined ? { used: 0, resetAt: nextMidnight(now, timeZone), setBy: timeZone } : { used: 0, resetAt: nextResetAt, setBy: 'admin' };
    return { dailyUsed: 0, nextResetAt: state.daily.resetAt };
  }

  usage(portalId: number): AccountUsage {
    const state = this.accounts.get(portalId);
    if (!state) return { perSecond: [], maxIn10s: 0, totals: { answered: 0, limited: 0 }, daily: null };
    this.prune(state, Math.floor(this.clock() / 1000));
    return {
      perSecond: [...state.perSecond.values()].sort((a, b) => a.second - b.second).map((entry) => ({ ...entry })),
      maxIn10s: state.maxIn10s,
      totals: { ...state.totals },
      daily: state.daily ? { used: state.daily.used, nextResetAt: state.daily.resetAt } : null,
    };
  }

  private state(portalId: number): AccountState {
    let state = this.accounts.get(portalId);
    if (!state) {
      state = {
        burst: new RollingWindow(),
        searches: new RollingWindow(),
        answered: new RollingWindow(),
        maxIn10s: 0,
        perSecond: new Map(),
        totals: { answered: 0, limited: 0 },
      };
      this.accounts.set(portalId, state);
    }
    return state;
  }

  /** The daily count, started again at its reset time; a reset at midnight follows the account's time zone if it changes. */
  private daily(state: AccountState, limits: HostedLimits, now: number): { used: number; resetAt: number; setBy: string } {
    const daily = state.daily;
    if (!daily) return (state.daily = { used: 0, resetAt: nextMidnight(now, limits.timeZone), setBy: limits.timeZone });
    if (now >= daily.resetAt) return (state.daily = { used: 0, resetAt: nextMidnight(now, limits.timeZone), setBy: limits.timeZone });
    if (daily.setBy !== 'admin' && daily.setBy !== limits.timeZone) {
      daily.resetAt = nextMidnight(now, limits.timeZone);
      daily.setBy = limits.timeZone;
    }
    return daily;
  }

  private countAnswered(state: AccountState, now: number, limited: boolean): void {
    state.answered.add(now);
    state.maxIn10s = Math.max(state.maxIn10s, state.answered.busiestAround(now, TEN_SECONDS_MS));
    state.totals.answered++;
    if (limited) state.totals.limited++;
    const second = Math.floor(now / 1000);
    let entry = state.perSecond.get(second);
    if (!entry) {
      entry = { second, answered: 0, limited: 0 };
      state.perSecond.set(second, entry);
      this.prune(state, second);
    }
    entry.answered++;
    if (limited) entry.limited++;
  }

  /** Forgets per-second counts older than the retention (entries are in arrival order). */
  private prune(state: AccountState, currentSecond: number): void {
    for (const second of state.perSecond.keys()) {
      if (second > currentSecond - this.retentionSeconds) break;
      state.perSecond.delete(second);
    }
  }
}
