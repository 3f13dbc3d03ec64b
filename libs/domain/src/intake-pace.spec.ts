import {
  intakeCostMs,
  intakeDecision,
  type IntakeDecision,
  intakeLimits,
  intakeRateNow,
  intakeRateProblem,
  largestIntakeTake,
  returnIntake,
  sharedIntakeRateProblem,
  takeIntake,
} from './intake-pace';

// 1,000 objects a second, a burst of 2,000 (2 s of the rate): a portal whose `due` is d ms ahead
// holds 2,000 − d objects.
const rate = { objectsPerSecond: 1000, burstObjects: 2000, maxWaitMs: 5000 };

/** The rule as a store and the gateway apply it together: take, then decide. */
function admit(due: number | undefined, objects: number, now: number) {
  const cost = intakeCostMs(objects, rate);
  const take = takeIntake(due, cost, now, intakeLimits(now, rate));
  return { take, decision: intakeDecision(take, cost, now, rate) };
}

describe('the intake pace', () => {
  it.each<[string, number | undefined, number, number, IntakeDecision, number]>([
    ['when a portal sends its first batch then it is taken at once from a full burst', undefined, 200, 0, { admitted: true, waitMs: 0 }, 200],
    ['when a batch takes the last objects of the burst then it is still taken at once', 1800, 200, 0, { admitted: true, waitMs: 0 }, 2000],
    ['when a batch does not fit then it waits for the rate and takes its objects now', 2000, 200, 0, { admitted: true, waitMs: 200 }, 2200],
    ['when batches already wait then the next waits behind them', 3000, 200, 0, { admitted: true, waitMs: 1200 }, 3200],
    ['when time passed then the rate paid for it', 3000, 200, 1200, { admitted: true, waitMs: 0 }, 3200],
    ['when long idle then the portal holds no more than the burst', 2000, 1, 3_600_000, { admitted: true, waitMs: 0 }, 3_600_001],
    ['when the wait would be exactly the longest then it is still taken', 6800, 200, 0, { admitted: true, waitMs: 5000 }, 7000],
    ['when the wait would be longer than the longest then it is refused and takes nothing', 6900, 200, 0, { admitted: false, retryAfterMs: 100 }, 6900],
    ['when a batch is bigger than the burst then it waits for the rest', undefined, 2500, 0, { admitted: true, waitMs: 500 }, 2500],
    [
      'when the stored due lies beyond what any take leaves (a replica’s clock ran ahead) then it is read as now: one bad clock does not hold the portal',
      3_600_000,
      200,
      0,
      { admitted: true, waitMs: 0 },
      200,
    ],
    ['when the stored due lies beyond this take’s latest but within the skew then it is honoured', 7900, 1, 0, { admitted: false, retryAfterMs: 901 }, 7900],
    [
      'when the stored due lies a minute beyond the window (clocks a minute apart) then it is still honoured',
      66_000,
      1,
      0,
      { admitted: false, retryAfterMs: 59_001 },
      66_000,
    ],
    [
      'when this replica’s clock is behind the one that took last then its batch waits longer by the difference and due still only grows',
      6990,
      20,
      4000,
      { admitted: true, waitMs: 1010 },
      7010,
    ],
  ])('%s', (_, due, objects, now, expected, dueAfter) => {
    const { take, decision } = admit(due, objects, now);
    expect(decision).toEqual(expected);
    expect(take.due).toBe(dueAfter);
  });

  it('when the rate does not divide a second exactly (1,500 a second) and a batch fills the burst exactly then it does not wait a rounding millisecond', () => {
    const odd = { objectsPerSecond: 1500, burstObjects: 400, maxWaitMs: 10_000 };
    let due: number | undefined;
    for (let now = 0; now < 100_000; now += 400_000 / 1500) {
      const cost = intakeCostMs(400, odd);
      const take = takeIntake(due, cost, now, intakeLimits(now, odd));
      due = take.due;
      expect(intakeDecision(take, cost, now, odd)).toEqual({ admitted: true, waitMs: 0 });
    }
  });

  it.each([
    [{ objectsPerSecond: 2000, burstObjects: 400, maxWaitMs: 10_000 }, 20_400],
    [{ objectsPerSecond: 20, burstObjects: 0, maxWaitMs: 10_000 }, 200],
  ])('when the rate is %p then one take is granted at most %p objects', (rate, largest) => {
    expect(largestIntakeTake(rate)).toBe(largest);
  });

  it('when a replica that may not hold another wait takes for a portal with a backlog within its window then it is refused and the backlog stays', () => {
    const cost = intakeCostMs(200, rate);
    const take = takeIntake(6000, cost, 0, intakeLimits(0, rate, { noWait: true }));
    expect(take).toEqual({ taken: false, due: 6000 });
    expect(intakeDecision(take, cost, 0, { ...rate, maxWaitMs: 0 })).toEqual({ admitted: false, retryAfterMs: 4200 });
  });

  it.each<[string, Parameters<typeof intakeRateProblem>[0], number, RegExp | null]>([
    ['the defaults, for a whole batch', { objectsPerSecond: 2000, burstObjects: 400, maxWaitMs: 10_000 }, 200, null],
    ['no pace at all', { objectsPerSecond: 0, burstObjects: 0, maxWaitMs: 0 }, 200, null],
    ['a negative rate', { objectsPerSecond: -1, burstObjects: 400, maxWaitMs: 10_000 }, 200, /must be 0 or more/],
    ['a rate that is not a number', { objectsPerSecond: Number.NaN, burstObjects: 400, maxWaitMs: 10_000 }, 1, /must be 0 or more/],
    [
      'a pace that can never take a batch of 200',
      { objectsPerSecond: 10, burstObjects: 100, maxWaitMs: 1000 },
      200,
      /must admit 200 objects at once; with 100 \+ 10\/s × 1000 ms/,
    ],
    ['a pace that takes one object, for a release', { objectsPerSecond: 10, burstObjects: 100, maxWaitMs: 1000 }, 1, null],
    ['a pace that can never take one object', { objectsPerSecond: 0.1, burstObjects: 0, maxWaitMs: 1000 }, 1, /must admit 1 object at once/],
  ])('when the rate is %s then the problem is as expected', (_, rate, wholeObjects, problem) => {
    const found = intakeRateProblem(rate, wholeObjects);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it('when the rate is 0 then every batch is taken at once (no pace)', () => {
    expect(intakeDecision({ taken: true, due: 1e9 }, 0, 0, { objectsPerSecond: 0, burstObjects: 0, maxWaitMs: 0 })).toEqual({ admitted: true, waitMs: 0 });
  });

  it.each<[string, number, number]>([
    ['when a waiting batch is given up, then its objects are the portal’s again', 2400, 2200],
    ['when less than the batch is still ahead, then due comes back to now: the portal holds its burst, no more', 1100, 1000],
    ['when the portal went idle since, then nothing is returned', 100, 100],
  ])('%s', (_, due, after) => {
    expect(returnIntake(due, 200, 1000)).toBe(after);
  });

  it.each<[string, number, number, boolean, number]>([
    ['when the portal sends alone, then it has its own rate', 2000, 1000, false, 2000],
    ['when other portals send too, then it has the shared rate', 2000, 1000, true, 1000],
    ['when the shared rate is higher than its own, then its own stays: sharing never speeds a portal up', 500, 1000, true, 500],
    ['when the shared rate is 0, then its own rate applies beside others too', 2000, 0, true, 2000],
    ['when there is no pace (rate 0), then there is none beside others either', 0, 1000, true, 0],
  ])('%s', (_, objectsPerSecond, sharedObjectsPerSecond, othersSending, expected) => {
    const now = intakeRateNow({ ...rate, objectsPerSecond, sharedObjectsPerSecond }, othersSending);
    expect(now).toEqual({ ...rate, objectsPerSecond: expected });
  });

  it.each<[string, number, number, RegExp | null]>([
    ['a shared rate below the rate', 1000, 200, null],
    ['no shared rate', 0, 200, null],
    ['a negative shared rate', -1, 200, /INTAKE_SHARED_OBJECTS_PER_SECOND must be 0 or more/],
    ['a shared rate that can never take a batch of 200', 10, 200, /INTAKE_SHARED_OBJECTS_PER_SECOND × INTAKE_MAX_WAIT_MS must admit 200/],
  ])('when the shared rate is %s, then the problem is %p', (_, sharedObjectsPerSecond, wholeObjects, problem) => {
    const found = sharedIntakeRateProblem({ objectsPerSecond: 2000, burstObjects: 100, maxWaitMs: 1000, sharedObjectsPerSecond }, wholeObjects);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });

  it('when a flood meets a steady sender then the flood is spaced at the rate and the steady sender never waits', () => {
    let flood: number | undefined;
    let steady: number | undefined;
    const floodTakenAt: number[] = [];
    const admittedAtOffer: number[] = [];
    let refused = 0;
    // The flood offers 10 batches of 200 every 100 ms (20,000 objects a second) for 10 s.
    for (let ms = 0; ms < 10_000; ms += 100) {
      for (let n = 0; n < 10; n++) {
        const { take, decision } = admit(flood, 200, ms);
        flood = take.due;
        if (decision.admitted) {
          floodTakenAt.push(ms + decision.waitMs);
          admittedAtOffer.push(ms);
        } else refused++;
      }
      const { take, decision } = admit(steady, 1, ms);
      steady = take.due;
      expect(decision).toEqual({ admitted: true, waitMs: 0 });
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
