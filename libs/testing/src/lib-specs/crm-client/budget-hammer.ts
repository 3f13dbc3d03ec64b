import { CrmBudgetPaused, type CrmBudget, type CrmLimits, type CrmPermit } from '@ecomm-sync/domain';
import { AccountBudget, type BudgetStore, type CrmBudgetDoc, type CrmBudgetStats } from '@ecomm-sync/crm-client';

export const WINDOW_MS = 10_000;
/** Where the hammer's clock starts. */
export const HAMMER_START = Date.UTC(2025, 5, 1, 12, 0, 0);

/** The most grants that any 10-s window (sliding over every grant time) holds. */
export function busiestWindow(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let busiest = 0;
  for (let first = 0, last = 0; first < sorted.length; first++) {
    while (last < sorted.length && sorted[last] < sorted[first] + WINDOW_MS) last++;
    busiest = Math.max(busiest, last - first);
  }
  return busiest;
}

/**
 * A budget store whose compare-and-set is atomic, in memory (a JavaScript check and set with no
 * await between them), with the delays of a database round trip: what the budget's code promises
 * on a server that is atomic.
 */
export class AtomicBudgetStore {
  private readonly docs = new Map<string, CrmBudgetDoc>();
  private readonly roundTrip = () => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 3));

  replica(options: { clock: () => number; sleep: (ms: number) => Promise<void>; leaseSize: number }) {
    const budgets = new Map<string, AccountBudget>();
    const owner: BudgetStore = {
      stats: { reads: 0, writes: 0, lostRaces: 0, leased: 0, taken: 0, handedBack: 0, contended: 0 },
      clock: options.clock,
      slotMs: 100,
      marginMs: 300, // the built-in CRM's margin, the shortest one in use
      leaseSize: options.leaseSize,
      sleep: options.sleep,
      defaultMaxWaitMs: 30_000,
      read: async (key) => {
        owner.stats.reads++;
        await this.roundTrip();
        const doc = this.docs.get(key);
        return doc ? structuredClone(doc) : null;
      },
      write: async (key, base, state) => {
        owner.stats.writes++;
        await this.roundTrip();
        if ((this.docs.get(key)?.version ?? 0) !== (base?.version ?? 0)) {
          owner.stats.lostRaces++;
          return null;
        }
        const doc = { ...structuredClone(state), _id: key, version: (base?.version ?? 0) + 1 };
        this.docs.set(key, doc);
        return structuredClone(doc);
      },
    };
    return {
      stats: owner.stats,
      for(account: string, limits: CrmLimits): CrmBudget {
        let budget = budgets.get(account);
        if (!budget) budgets.set(account, (budget = new AccountBudget(owner, account, limits)));
        return budget;
      },
    };
  }
}

export interface HammerReplica {
  for(account: string, limits: CrmLimits): CrmBudget;
  stats: CrmBudgetStats;
}

export interface HammerRun {
  /** Each permit the callers sent on, at its slot (its send-by time). */
  granted: number[];
  /** Each permit a caller saw only after its slot ended (not sent), at its slot. */
  late: number[];
  busiest: number;
}

/**
 * Replicas, three callers each, take permits of `account` as fast as they are given until `end` on
 * `clock`. Each permit is counted at its slot (its send-by time is the slot's end): what the budget
 * promises is about its slots, which no pause of this process can move; a caller that sees its
 * permit only after the slot ended does not send on it (as the CRM client does), and is counted as
 * late.
 */
export async function hammer(replicas: HammerReplica[], run: { account: string; limit: number; end: number; clock: () => number }): Promise<HammerRun> {
  const { account, limit, end, clock } = run;
  const limits: CrmLimits = { burstPer10s: limit, dailyCap: null, timeZone: 'UTC', searchPerSecond: null };
  const granted: number[] = [];
  const late: number[] = [];
  await Promise.all(
    replicas.flatMap((budgets) =>
      Array.from({ length: 3 }, async () => {
        const budget = budgets.for(account, limits);
        for (;;) {
          let permit: CrmPermit;
          try {
            permit = await budget.take('request', { maxWaitMs: Math.max(0, end - clock()) });
          } catch (error) {
            if (error instanceof CrmBudgetPaused && error.until >= end) return; // the next permit is after the run
            throw error;
          }
          const now = clock();
          if (now >= end) return;
          (now >= permit.sendBy ? late : granted).push(permit.sendBy);
        }
      }),
    ),
  );
  const sum = (pick: (stats: CrmBudgetStats) => number) => replicas.reduce((total, budgets) => total + pick(budgets.stats), 0);
  console.info(
    `budget hammer: ${granted.length} requests (limit ${limit} per 10 s), busiest 10-s window of slots ${busiestWindow(granted)}, ${late.length} permits too late to send; ${sum((s) => s.writes)} writes (${sum((s) => s.lostRaces)} lost races, ${sum((s) => s.contended)} leases lost every round)`,
  );
  return { granted, late, busiest: busiestWindow(granted) };
}
