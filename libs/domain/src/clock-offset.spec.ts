import { bestClockOffset, clockOffset, type ClockReading } from './clock-offset';

const T = 1_800_000_000_000;

describe('clockOffset', () => {
  it.each<[string, ClockReading, ReturnType<typeof clockOffset>]>([
    ['the other clock agrees with ours', { sentAt: T, theirs: T + 2, receivedAt: T + 4 }, { offsetMs: 0, uncertaintyMs: 2 }],
    ['the other clock is ahead by 90 s', { sentAt: T, theirs: T + 90_002, receivedAt: T + 4 }, { offsetMs: 90_000, uncertaintyMs: 2 }],
    ['the other clock is behind by 5 s', { sentAt: T, theirs: T - 4_990, receivedAt: T + 20 }, { offsetMs: -5_000, uncertaintyMs: 10 }],
    ['the answer came at once', { sentAt: T, theirs: T + 7, receivedAt: T }, { offsetMs: 7, uncertaintyMs: 0 }],
    ['the answer came before the question (our clock stepped back)', { sentAt: T, theirs: T, receivedAt: T - 1 }, null],
    ['the other clock gave no time', { sentAt: T, theirs: NaN, receivedAt: T + 1 }, null],
  ])('when %s, then the offset is %j', (_case, reading, offset) => {
    expect(clockOffset(reading)).toEqual(offset);
  });
});

describe('bestClockOffset', () => {
  it.each<[string, ClockReading[], ReturnType<typeof bestClockOffset>]>([
    [
      'readings with different round trips',
      [
        { sentAt: T, theirs: T + 1_050, receivedAt: T + 100 },
        { sentAt: T + 200, theirs: T + 1_202, receivedAt: T + 204 },
        { sentAt: T + 300, theirs: T + 1_320, receivedAt: T + 340 },
      ],
      { offsetMs: 1_000, uncertaintyMs: 2 },
    ],
    [
      'one reading that cannot be one beside a good one',
      [
        { sentAt: T, theirs: T, receivedAt: T - 5 },
        { sentAt: T, theirs: T + 3, receivedAt: T + 6 },
      ],
      { offsetMs: 0, uncertaintyMs: 3 },
    ],
    ['no readings', [], null],
  ])('when there are %s, then the least uncertain one counts: %j', (_case, readings, offset) => {
    expect(bestClockOffset(readings)).toEqual(offset);
  });
});
