import { middleBy, percentile } from './stats';

describe('middleBy', () => {
  it.each([
    { what: 'one item', keys: [5], middle: 5 },
    { what: 'three items out of order', keys: [9, 1, 4], middle: 4 },
    { what: 'four items (the upper middle)', keys: [4, 1, 3, 2], middle: 3 },
    { what: 'equal keys', keys: [2, 2, 2], middle: 2 },
  ])('when given $what, then the middle by key is $middle', ({ keys, middle }) => {
    const items = keys.map((key, position) => ({ key, position }));
    expect(middleBy(items, (item) => item.key).key).toBe(middle);
  });

  it('when given rounds, then the whole middle round is returned, not a mix of rounds', () => {
    const rounds = [
      { ratio: 0.64, ours: 129_000 },
      { ratio: 0.47, ours: 90_000 },
      { ratio: 0.51, ours: 118_000 },
    ];
    expect(middleBy(rounds, (r) => r.ratio)).toBe(rounds[2]);
  });

  it('when given nothing, then it says so instead of answering undefined', () => {
    expect(() => middleBy([], (n: number) => n)).toThrow('middleBy needs at least one item');
  });
});

describe('percentile', () => {
  it.each([
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4], 99, 4],
    [[7], 99, 7],
  ])('when the sorted values are %j, then percentile %s is %s', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });
});
