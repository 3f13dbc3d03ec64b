import { bucketIsFull, refilled, type Refill, type TokenBucket } from './token-bucket';

const share: Refill = { objectsPerSecond: 100, burstObjects: 1000 };
const pace: Refill = { objectsPerSecond: 1000, burstObjects: 2000 };

describe('refilled', () => {
  it.each<[string, TokenBucket | undefined, number, number]>([
    ['when a portal has no bucket then it holds the whole burst', undefined, 0, 1000],
    ['when time passed then the bucket refilled at the rate', { tokens: 100, at: 0 }, 2000, 300],
    ['when long idle then it holds no more than the burst', { tokens: 0, at: 0 }, 3_600_000, 1000],
    ['when the clock reads earlier than the count then nothing is added', { tokens: 100, at: 5000 }, 0, 100],
  ])('%s', (_, bucket, now, tokens) => {
    expect(refilled(bucket, now, share)).toBe(tokens);
  });
});

describe('bucketIsFull', () => {
  it.each<[string, TokenBucket, number, Refill, boolean]>([
    ['when refilled to the burst then it is full', { tokens: 900, at: 0 }, 1000, share, true],
    ['when still short of the burst then it is not', { tokens: 900, at: 0 }, 999, share, false],
    ['when the bucket refilled to the burst then it is full', { tokens: 0, at: 0 }, 2000, pace, true],
    ['when it has not then it is not', { tokens: 0, at: 0 }, 1999, pace, false],
    ['when it is in debt then it is not', { tokens: -500, at: 0 }, 2000, pace, false],
  ])('%s', (_, bucket, now, refill, full) => {
    expect(bucketIsFull(bucket, now, refill)).toBe(full);
  });
});
