import type { HostedLimits } from '../domain/hosted-limits';
import { RequestLedger } from './request-ledger';

const T = Date.UTC(2025, 5, 1, 12, 0, 0);
const limits: HostedLimits = { burstPer10s: 3, intervalMs: 10_000, dailyCap: 1_000, timeZone: 'UTC', searchPerSecond: 4 };

describe('RequestLedger', () => {
  it('when requests are read out of the order they arrived, then each counts at its arrival and every window that holds it is checked', () => {
    let now = T + 2_000;
    const ledger = new RequestLedger(() => now);
    // Read at T + 2 s: requests that arrived at T + 1.5 s, T + 1.6 s, then one that arrived at T (its body read late).
    expect(ledger.admit(7, limits, false, T + 1_500).verdict.admitted).toBe(true);
    expect(ledger.admit(7, limits, false, T + 1_600).verdict.admitted).toBe(true);
    expect(ledger.admit(7, limits, false, T).verdict.admitted).toBe(true);
    // A fourth that arrived just before the first: the window from it holds the three others.
    expect(ledger.admit(7, limits, false, T - 100).verdict).toMatchObject({ admitted: false, policy: 'TEN_SECONDLY_ROLLING' });

    now = T + 10_100;
    expect(ledger.admit(7, limits, false).verdict.admitted).toBe(true); // T left the window; T + 1.5 s and T + 1.6 s are in it
    const usage = ledger.usage(7);
    expect(usage.maxIn10s).toBe(4); // answered, the refused one included, in the 10 s from T - 100 ms
    expect(usage.totals).toEqual({ answered: 5, limited: 1 });
  });

  it('when calls without a daily limit (OAuth) go past the daily cap, then each is admitted, counts in the window and not in the day', () => {
    const ledger = new RequestLedger(() => T);
    const daily = { ...limits, burstPer10s: 10, dailyCap: 2 };
    for (let i = 0; i < 3; i++) expect(ledger.admit(7, daily, false, T, { daily: false }).verdict.admitted).toBe(true);

    expect(ledger.admit(7, daily, false, T).headers).toMatchObject({ 'X-HubSpot-RateLimit-Remaining': '6', 'X-HubSpot-RateLimit-Daily-Remaining': '1' });
    expect(ledger.admit(7, daily, false, T).verdict.admitted).toBe(true);
    expect(ledger.admit(7, daily, false, T).verdict).toMatchObject({ admitted: false, policy: 'DAILY' });
    expect(ledger.admit(7, daily, false, T, { daily: false }).verdict.admitted).toBe(true);
  });
});
