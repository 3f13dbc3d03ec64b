import { responsiveShare } from './budget-hammer';

describe('the share of a window in which the machine was responsive', () => {
  it.each([
    ['no slow span', [], 1],
    ['a span inside the window', [{ from: 2_000, to: 4_000 }], 0.8],
    ['a span across the window start', [{ from: -1_000, to: 1_000 }], 0.9],
    ['a span across the window end', [{ from: 9_500, to: 12_000 }], 0.95],
    ['a span covering the window', [{ from: -5, to: 10_005 }], 0],
    ['a span outside the window', [{ from: 10_000, to: 11_000 }], 1],
    [
      'two spans',
      [
        { from: 0, to: 1_000 },
        { from: 5_000, to: 6_000 },
      ],
      0.8,
    ],
  ])('when the probe saw %s, then the window from 0 to 10 s is counted accordingly', (_, slow, share) => {
    expect(responsiveShare(slow, 0, 10_000)).toBeCloseTo(share, 10);
  });
});
