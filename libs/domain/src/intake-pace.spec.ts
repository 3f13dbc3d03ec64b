import { admitIntake, returnIntake } from './intake-pace';
import type { TokenBucket } from './token-bucket';

const rate = { objectsPerSecond: 1000, burstObjects: 2000, maxWaitMs: 5000 };

describe('admitIntake', () => {
  it.each<[string, TokenBucket | undefined, number, number, { admitted: boolean; waitMs?: number; retryAfterMs?: number }, number]>([
    ['when a portal sends its first batch then it is taken at once from a full bucket', undefined, 200, 0, { admitted: true, waitMs: 0 }, 1800],
    ['when a batch takes the last objects of the bucket then it is still taken at once', { tokens: 200, at: 0 }, 200, 0, { admitted: true, waitMs: 0 }, 0],
    ['when a batch does not fit then it waits for the refill and takes its objects now', { tokens: 0, at: 0 }, 200, 0, { admitted: true, waitMs: 200 }, -200],
    ['when batches already wait then the next waits behind them', { tokens: -1000, at: 0 }, 200, 0, { admitted: true, waitMs: 1200 }, -1200],
    ['when time passed then the bucket refilled at the rate', { tokens: -1000, at: 0 }, 200, 1200, { admitted: true, waitMs: 0 }, 0],
    ['when long idle then the bucket holds no more than the burst', { tokens: 0, at: 0 }, 1, 3_600_000, { admitted: true, waitMs: 0 }, 1999],
    ['when the wait would be exactly the longest then it is still taken', { tokens: -4800, at: 0 }, 200, 0, { admitted: true, waitMs: 5000 }, -5000],
    [
      'when the wait would be longer than the longest then it is refused and takes nothing',
      { tokens: -4900, at: 0 },
      200,
      0,
      { admitted: false, retryAfterMs: 100 },
      -4900,
    ],
    ['when a batch is bigger than the burst then it waits for the rest', undefined, 2500, 0, { admitted: true, waitMs: 500 }, -500],
    ['when the clock went back then nothing refills', { tokens: 10, at: 5000 }, 20, 4000, { admitted: true, waitMs: 10 }, -10],
  ])('%s', (_, bucket, objects, now, expected, tokensAfter) => {
    const decision = admitIntake(bucket, objects, now, rate);
    expect(decision).toMatchObject(expected);
    expect(decision.bucket).toEqual({ tokens: tokensAfter, at: now });
  });

  it('when the rate is 0 then every batch is taken at once (no pace)', () => {
    expect(admitIntake({ tokens: -1e9, at: 0 }, 5000, 0, { objectsPerSecond: 0, burstObjects: 0, maxWaitMs: 0 })).toMatchObject({ admitted: true, waitMs: 0 });
  });

  it('when a flood meets a steady sender then the flood is spaced at the rate and the steady sender never waits', () => {
    let flood: TokenBucket | undefined;
    let steady: TokenBucket | undefined;
    const floodTakenAt: number[] = [];
    const admittedAtOffer: number[] = [];
    let refused = 0;
    // The flood offers 10 batches of 200 every 100 ms (20,000 objects a second) for 10 s.
    for (let ms = 0; ms < 10_000; ms += 100) {
      for (let n = 0; n < 10; n++) {
        const decision = admitIntake(flood, 200, ms, rate);
        flood = decision.bucket;
        if (decision.admitted) {
          floodTakenAt.push(ms + decision.waitMs);
          admittedAtOffer.push(ms);
        } else refused++;
      }
      const decision = admitIntake(steady, 1, ms, rate);
      steady = decision.bucket;
      expect(decision).toMatchObject({ admitted: true, waitMs: 0 });
    }
    // By any time, what was taken in is at most the burst plus the rate since the start.
    const takenAt = [...floodTakenAt].sort((a, b) => a - b);
    takenAt.forEach((at, i) => expect((i + 1) * 200).toBeLessThanOrEqual(rate.burstObjects + (at * rate.objectsPerSecond) / 1000));
    // It is taken at the rate throughout, and nothing waits longer than the longest wait.
    expect(takenAt.filter((at) => at <= 10_000).length * 200).toBeGreaterThanOrEqual(10 * rate.objectsPerSecond);
    expect(Math.max(...floodTakenAt.map((at, i) => at - admittedAtOffer[i]))).toBeLessThanOrEqual(rate.maxWaitMs);
    expect(refused).toBeGreaterThan(0);
  });
});

describe('returnIntake', () => {
  it.each<[string, TokenBucket | undefined, number, TokenBucket | undefined]>([
    ['when a waiting batch is given up, then its objects are the portal’s again', { tokens: -400, at: 10 }, 200, { tokens: -200, at: 10 }],
    ['when the bucket would overflow, then it holds no more than the burst', { tokens: 1900, at: 10 }, 200, { tokens: 2000, at: 10 }],
    ['when the portal has no bucket, then there is none to return to', undefined, 200, undefined],
  ])('%s', (_, bucket, objects, after) => {
    expect(returnIntake(bucket, objects, rate)).toEqual(after);
  });
});
