import { activityBuckets, activityStart } from './activity-buckets';

const MIN = 60_000;
const now = Date.UTC(2026, 0, 1, 12, 7, 30);

describe('activityBuckets', () => {
  it.each([
    ['hour', Date.UTC(2026, 0, 1, 11, 10)],
    ['day', Date.UTC(2025, 11, 31, 13, 0)],
  ] as const)('when the window is the last %s, then it starts at %i, aligned, with the last bucket holding now', (window, start) => {
    expect(activityStart(window, now)).toBe(start);
  });

  it.each<[string, number[], number[], Record<number, [number, number]>]>([
    ['nothing', [], [], {}],
    [
      'times in the first, last and a middle bucket',
      [Date.UTC(2026, 0, 1, 11, 10), now, now - 1],
      [Date.UTC(2026, 0, 1, 11, 14, 59), Date.UTC(2026, 0, 1, 11, 40)],
      { 0: [1, 1], 6: [0, 1], 11: [2, 0] },
    ],
    ['times before the window and after now', [Date.UTC(2026, 0, 1, 11, 9, 59), now + 5 * MIN], [Date.UTC(2026, 0, 1, 10, 0)], {}],
  ])('when the times are %s, then each bucket counts its own', (_name, received, applied, expected) => {
    const buckets = activityBuckets(received, applied, 'hour', now);
    expect(buckets).toHaveLength(12);
    expect(buckets[1].from - buckets[0].from).toBe(5 * MIN);
    const counted = Object.fromEntries(buckets.map((b, n) => [n, [b.received, b.applied]] as const).filter(([, [r, a]]) => r + a > 0));
    expect(counted).toEqual(expected);
  });
});
