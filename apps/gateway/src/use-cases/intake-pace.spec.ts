import { IntakePace } from './intake-pace';

const options = { objectsPerSecond: 200, burstObjects: 200, maxWaitMs: 5000, maxHeldBytes: 100_000 };

describe('IntakePace', () => {
  /** A pace whose clock stands still and whose waits stay open until released. */
  function heldPace(overrides: Partial<typeof options> = {}) {
    const releases: (() => void)[] = [];
    const pace = new IntakePace(
      { ...options, ...overrides },
      () => 0,
      () => new Promise<void>((resolve) => releases.push(resolve)),
    );
    return { pace, releaseAll: () => releases.splice(0).forEach((release) => release()) };
  }

  it.each([
    ['a negative rate', { objectsPerSecond: -1 }],
    ['a negative held size', { maxHeldBytes: -1 }],
    ['a pace that can never take a batch of 200', { objectsPerSecond: 10, burstObjects: 100, maxWaitMs: 1000 }],
  ])('when configured with %s, then it refuses to start, saying what to fix', (_, overrides) => {
    expect(() => new IntakePace({ ...options, ...overrides })).toThrow(/INTAKE_/);
  });

  describe('on its own clock', () => {
    afterEach(() => jest.useRealTimers());

    it('when the wall clock steps an hour ahead, then a portal in debt still waits: the pace counts on a clock that only moves forward', async () => {
      // The wall clock (Date) is faked and stepped; performance.now is left running as it does.
      jest.useFakeTimers({ doNotFake: ['performance'], now: Date.now() });
      const waits: number[] = [];
      // 1 object a second: the second batch is due 200 s after the first, however slow the machine.
      const pace = new IntakePace({ ...options, objectsPerSecond: 1, maxWaitMs: 250_000 }, undefined, async (ms) => void waits.push(ms));
      await pace.admit(1, 200, 1); // the burst
      jest.setSystemTime(Date.now() + 3_600_000);

      await pace.admit(1, 200, 1);

      // On the wall clock the hour would have refilled the bucket: no wait at all.
      expect(waits).toHaveLength(1);
    });
  });

  it('when the rate is 0, then every batch goes through at once, whatever its size', async () => {
    const { pace } = heldPace({ objectsPerSecond: 0, burstObjects: 0, maxWaitMs: 0, maxHeldBytes: 0 });
    await expect(Promise.all([pace.admit(1, 200, 1e6), pace.admit(1, 200, 1e6)])).resolves.toBeDefined();
  });

  it('when waiting batches hold the most bytes the replica may hold, then the next one that must wait gets 429 at once and takes nothing of the pace', async () => {
    const { pace, releaseAll } = heldPace();
    await pace.admit(1, 200, 60_000); // the burst: no wait
    const held = pace.admit(1, 100, 60_000); // waits 0.5 s, holding 60,000 bytes
    const refused = pace.admit(2, 200, 1).then(() => pace.admit(2, 200, 50_000)); // portal 2's second batch would wait: 110,000 bytes held

    await expect(refused).rejects.toMatchObject({
      status: 429,
      headers: { 'retry-after': '1' },
      message: expect.stringMatching(/holds as many waiting batches/),
    });
    releaseAll();
    await held;
    // Portal 2 kept its place: once the bytes are free, its batch waits as it would have.
    const next = pace.admit(2, 200, 50_000);
    releaseAll();
    await expect(next).resolves.toBeUndefined();
  });

  it('when a wait ends, then its bytes are free for the next batch that must wait', async () => {
    const { pace, releaseAll } = heldPace({ maxHeldBytes: 60_000 });
    await pace.admit(1, 200, 60_000);
    const first = pace.admit(1, 100, 60_000);
    releaseAll();
    await first;
    const second = pace.admit(1, 100, 60_000);
    releaseAll();
    await expect(second).resolves.toBeUndefined();
  });
});
