import { chooseLane, laneShareProblem, returnLaneShare } from './lane-share';
import type { TokenBucket } from './token-bucket';

const share = { objectsPerSecond: 100, burstObjects: 1000 };

describe('chooseLane', () => {
  it.each<[string, TokenBucket | undefined, number, number, 'interactive' | 'bulk', number]>([
    ['when a portal sends its first batch then it is interactive from a full bucket', undefined, 200, 0, 'interactive', 800],
    ['when a batch takes the last objects of the bucket then it is still interactive', { tokens: 200, at: 0 }, 200, 0, 'interactive', 0],
    ['when a batch does not fit then it goes bulk and takes nothing', { tokens: 199, at: 0 }, 200, 0, 'bulk', 199],
    ['when time passed then the bucket refilled at the share', { tokens: 0, at: 0 }, 200, 2000, 'interactive', 0],
    ['when long idle then the bucket holds no more than the burst', { tokens: 0, at: 0 }, 1, 3_600_000, 'interactive', 999],
    ['when a batch is bigger than the burst then it always goes bulk', undefined, 1001, 0, 'bulk', 1000],
    ['when the clock went back then nothing refills', { tokens: 10, at: 5000 }, 20, 4000, 'bulk', 10],
  ])('%s', (_, bucket, objects, now, lane, tokensAfter) => {
    const chosen = chooseLane(bucket, objects, now, share);
    expect(chosen.lane).toBe(lane);
    expect(chosen.bucket).toEqual({ tokens: tokensAfter, at: now });
  });

  it('when the share is 0 then every batch is interactive (one lane)', () => {
    expect(chooseLane({ tokens: 0, at: 0 }, 5000, 0, { objectsPerSecond: 0, burstObjects: 0 }).lane).toBe('interactive');
  });

  it('when a flood meets a steady sender then the flood goes bulk beyond its share and the steady sender stays interactive', () => {
    let flood: TokenBucket | undefined;
    let steady: TokenBucket | undefined;
    const lanes = { flood: [] as string[], steady: [] as string[] };
    for (let ms = 0; ms < 10_000; ms += 100) {
      for (let n = 0; n < 5; n++) {
        const chosen = chooseLane(flood, 200, ms, share);
        flood = chosen.bucket;
        lanes.flood.push(chosen.lane);
      }
      const chosen = chooseLane(steady, 1, ms, share);
      steady = chosen.bucket;
      lanes.steady.push(chosen.lane);
    }
    expect(lanes.steady.every((lane) => lane === 'interactive')).toBe(true);
    // The burst of 1000 at once (5 batches of 200), then 100 a second for 9.9 s (4 more): the other 491 bulk.
    expect(lanes.flood.filter((lane) => lane === 'interactive')).toHaveLength(9);
  });
});

describe('returnLaneShare', () => {
  it.each<[string, TokenBucket | undefined, 'interactive' | 'bulk', number, TokenBucket | undefined]>([
    [
      'when an interactive batch is not accepted, then its objects are the portal’s share again',
      { tokens: 100, at: 10 },
      'interactive',
      200,
      { tokens: 300, at: 10 },
    ],
    ['when the bucket would overflow, then it holds no more than the burst', { tokens: 900, at: 10 }, 'interactive', 200, { tokens: 1000, at: 10 }],
    ['when a bulk batch is not accepted, then there is nothing to return: it took nothing', { tokens: 100, at: 10 }, 'bulk', 200, { tokens: 100, at: 10 }],
    ['when the portal has no bucket, then there is none to return to', undefined, 'interactive', 200, undefined],
  ])('%s', (_, bucket, lane, objects, after) => {
    expect(returnLaneShare(bucket, lane, objects, share)).toEqual(after);
  });
});

describe('laneShareProblem', () => {
  it.each<[string, number, number, RegExp | null]>([
    ['a burst of one whole batch', 200, 200, null],
    ['a burst of several batches', 200, 2000, null],
    ['no share (one lane) and no burst', 0, 0, null],
    ['a burst below one whole batch', 200, 199, /LANE_SHARE_BURST_OBJECTS must be at least 200 \(one whole batch\)/],
    ['a negative share', -1, 200, /must be 0 or more/],
    ['a burst that is not a number', 200, Number.NaN, /must be 0 or more/],
  ])('when the share is configured with %s, then the problem is %p', (_, objectsPerSecond, burstObjects, problem) => {
    const found = laneShareProblem({ objectsPerSecond, burstObjects }, 200);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});
