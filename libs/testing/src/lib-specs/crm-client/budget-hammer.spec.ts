import { meanPace } from './budget-hammer';

describe("the machine's mean pace over a window", () => {
  it.each([
    ['no span', [], 1],
    ['a span at pace', [{ from: 0, to: 10_000, pace: 1 }], 1],
    ['a stall inside the window', [{ from: 2_000, to: 4_000, pace: 0 }], 0.8],
    ['half pace across the window start', [{ from: -1_000, to: 1_000, pace: 0.5 }], 0.95],
    ['a stall across the window end', [{ from: 9_500, to: 12_000, pace: 0 }], 0.95],
    ['a tenth of the pace throughout', [{ from: -5, to: 10_005, pace: 0.1 }], 0.1],
    ['a stall outside the window', [{ from: 10_000, to: 11_000, pace: 0 }], 1],
    [
      'spans one after another',
      [
        { from: 0, to: 5_000, pace: 1 },
        { from: 5_000, to: 10_000, pace: 0.6 },
      ],
      0.8,
    ],
  ])('when the probe saw %s, then the window from 0 to 10 s is counted accordingly', (_, spans, pace) => {
    expect(meanPace(spans, 0, 10_000)).toBeCloseTo(pace, 10);
  });
});
