import { bestClockOffset, clockOffset, type ClockReading, type MeasuredClockOffset, replacesClockOffset } from './clock-offset';

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

describe('replacesClockOffset', () => {
  const inForce: MeasuredClockOffset = { offsetMs: 1_000, uncertaintyMs: 2, at: T };
  it.each<[string, MeasuredClockOffset | null, { uncertaintyMs: number }, number, boolean]>([
    ['there is none in force', null, { uncertaintyMs: 500 }, T, true],
    ['the new one is more certain', inForce, { uncertaintyMs: 1 }, T + 60_000, true],
    ['the new one is as certain as the one in force has become a minute on (2 ms + 6 ms of drift)', inForce, { uncertaintyMs: 8 }, T + 60_000, true],
    ['the new one is less certain than the one in force a minute on', inForce, { uncertaintyMs: 50 }, T + 60_000, false],
    ['the one in force is ten minutes old (2 ms + 60 ms of drift)', inForce, { uncertaintyMs: 50 }, T + 600_000, true],
    ['our clock reads before the one in force was measured', inForce, { uncertaintyMs: 3 }, T - 1_000, false],
  ])('when %s, then the new one replaces it: %p', (_case, current, candidate, at, replaces) => {
    expect(replacesClockOffset(current, { offsetMs: 0, ...candidate }, at)).toBe(replaces);
  });
});
