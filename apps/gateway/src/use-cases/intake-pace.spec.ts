import { metricsRegistry } from '@ecomm-sync/runtime';
import { FakeIntakePaceRepository, recordingLogger } from '@ecomm-sync/testing';
import { IntakePace } from './intake-pace';

const options = { objectsPerSecond: 200, burstObjects: 200, maxWaitMs: 5000, maxHeldBytes: 100_000 };

/** Other portals count as sending for 5 s after they were last asked about on `clock`: a stand-in for SendingPortals, which reads the shared paces (backlogs included). */
function sendingOn(clock: () => number) {
  const last = new Map<number, number>();
  return {
    othersSending: (portalId: number) => {
      last.set(portalId, clock());
      return [...last].some(([id, at]) => id !== portalId && clock() - at <= 5_000);
    },
  };
}

describe('IntakePace', () => {
  /** A pace whose clock stands still and whose waits stay open until released. */
  function heldPace(overrides: Partial<typeof options> = {}) {
    const held: (() => void)[] = [];
    const waits: number[] = [];
    let onHeld: (() => void) | undefined;
    const paces = new FakeIntakePaceRepository();
    const pace = new IntakePace({ ...options, ...overrides }, paces, {
      clock: () => 0,
      wait: (ms) =>
        new Promise<void>((resolve) => {
          waits.push(ms);
          held.push(resolve);
          onHeld?.();
        }),
    });
    /** Resolves once a batch waits (its take is asynchronous). */
    const untilHeld = async () => {
      if (held.length === 0) await new Promise<void>((resolve) => (onHeld = resolve));
    };
    /** Ends the oldest wait, once there is one. */
    const releaseNext = async () => {
      await untilHeld();
      held.shift()?.();
    };
    return { pace, paces, waits, untilHeld, releaseNext };
  }

  it.each([
    ['a negative rate', { objectsPerSecond: -1 }],
    ['a negative held size', { maxHeldBytes: -1 }],
    ['a pace that can never take a batch of 200', { objectsPerSecond: 10, burstObjects: 100, maxWaitMs: 1000 }],
    ['a negative shared rate', { sharedObjectsPerSecond: -1 }],
    ['a shared rate that can never take a batch of 200', { burstObjects: 100, sharedObjectsPerSecond: 10, maxWaitMs: 1000 }],
  ])('when configured with %s, then it refuses to start, saying what to fix', (_, overrides) => {
    expect(() => new IntakePace({ ...options, ...overrides }, new FakeIntakePaceRepository())).toThrow(/INTAKE_/);
  });

  it('when two replicas take one portal’s batches, then the second replica’s batch waits behind the first’s: the pace is the portal’s, not the replica’s', async () => {
    const shared = new FakeIntakePaceRepository();
    const waits: string[] = [];
    const replica = (name: string) => new IntakePace(options, shared, { clock: () => 0, wait: async (ms) => void waits.push(`${name} ${ms}`) });
    const [first, second] = [replica('first'), replica('second')];

    await first.admit(1, 200, 1); // the burst
    await second.admit(1, 200, 1);
    await first.admit(1, 100, 1);
    await second.admit(2, 200, 1); // another portal's burst

    expect(waits).toEqual(['second 1000', 'first 1500']);
  });

  it('when another portal sends too, then a portal’s batches are spaced at the shared rate, and at its own again once it sends alone', async () => {
    let now = 0;
    const waits: number[] = [];
    const sending = sendingOn(() => now);
    const pace = new IntakePace({ ...options, sharedObjectsPerSecond: 100 }, new FakeIntakePaceRepository(), {
      clock: () => now,
      wait: async (ms) => void waits.push(ms),
      sending,
    });

    await pace.admit(1, 200, 1); // the burst, alone
    await pace.admit(1, 200, 1); // alone: 200 objects at 200 a second
    await pace.admit(2, 1, 1); // another portal's single object
    await pace.admit(1, 200, 1); // beside it
    await pace.admit(1, 200, 1); // 2 s after the one before: 200 objects at 100 a second
    now = 10_000; // portal 2 went quiet; portal 1's backlog is spent
    await pace.admit(1, 200, 1); // the burst again
    await pace.admit(1, 200, 1); // 1 s: 200 a second again

    // (The first batch beside waits 2 s, not 3: the burst, counted in objects, spans 2 s of the lower rate.)
    expect(waits).toEqual([1000, 2000, 4000, 1000]);
  });

  it('when a batch charged at the shared rate is given up after the other portal went quiet, then the portal gets back what it was charged', async () => {
    let sendingNow = 0;
    let waiting: (() => void) | undefined;
    const entered = new Promise<void>((resolve) => (waiting = resolve));
    const paces = new FakeIntakePaceRepository();
    const pace = new IntakePace({ ...options, sharedObjectsPerSecond: 100 }, paces, {
      clock: () => 0,
      wait: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('aborted')));
          waiting?.();
        }),
      sending: sendingOn(() => sendingNow),
    });
    await pace.admit(2, 1, 1);
    await pace.admit(1, 200, 1); // the burst at 100 a second: due 2,000
    const sender = new AbortController();
    const given = pace.admit(1, 100, 1, sender.signal); // 1,000 ms of the shared rate: due 3,000
    await entered;

    sendingNow = 10_000; // portal 2 went quiet meanwhile: its own rate would price the batch at 500 ms
    sender.abort();

    await expect(given).rejects.toMatchObject({ status: 499 });
    expect(await paces.find(1)).toBe(2000);
  });

  it('when a batch beside other portals would wait too long, then the 429 names the shared pace', async () => {
    const sending = sendingOn(() => 0);
    const pace = new IntakePace({ ...options, sharedObjectsPerSecond: 100, maxWaitMs: 1000 }, new FakeIntakePaceRepository(), {
      clock: () => 0,
      wait: async () => undefined,
      sending,
    });
    await pace.admit(2, 1, 1);
    await pace.admit(1, 200, 1); // the burst
    await pace.admit(1, 100, 1); // waits 1 s at 100 a second

    await expect(pace.admit(1, 200, 1)).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/faster than 100 objects a second \(its pace while other portals send too\)/),
    });
  });

  it('when the pace cannot be read, then the batch is taken at once, the warning says so, and for a few seconds batches go through without asking', async () => {
    const { logger, entries } = recordingLogger();
    let now = 0;
    let asked = 0;
    const broken = {
      take: async () => (asked++, Promise.reject(Object.assign(new Error('connection closed'), { name: 'MongoNetworkError' }))),
      giveBack: async () => undefined,
    };
    const pace = new IntakePace(options, broken, { clock: () => now, wait: async () => Promise.reject(new Error('must not wait')), logger });

    await expect(pace.admit(1, 200, 1)).resolves.toBe(0);
    now = 4_999;
    await expect(pace.admit(1, 200, 1)).resolves.toBe(0);
    expect(asked).toBe(1);
    now = 5_000;
    await expect(pace.admit(1, 200, 1)).resolves.toBe(0);
    expect(asked).toBe(2);

    expect(entries.filter((entry) => /intake pace could not be read/.test(String(entry.message)))).toHaveLength(2);
  });

  it('when the store refuses for another reason (replicas contended), then that batch goes through unpaced and the next one asks again', async () => {
    let asked = 0;
    const contended = {
      take: async () => (asked++, Promise.reject(new Error('the intake pace of portal 1 changed under each of 4 tries'))),
      giveBack: async () => undefined,
    };
    const pace = new IntakePace(options, contended, { clock: () => 0, wait: async () => Promise.reject(new Error('must not wait')) });

    await expect(pace.admit(1, 200, 1)).resolves.toBe(0);
    await expect(pace.admit(1, 200, 1)).resolves.toBe(0);

    expect(asked).toBe(2);
  });

  it('when the database answers late (busy, not away), then that batch goes through unpaced and the next ones still ask, with one warning', async () => {
    const { logger, entries } = recordingLogger();
    let asked = 0;
    const silent = { take: () => (asked++, new Promise<never>(() => undefined)), giveBack: async () => undefined };
    const pace = new IntakePace(options, silent, { clock: () => 0, wait: async () => Promise.reject(new Error('must not wait')), takeTimeoutMs: 10, logger });

    await expect(pace.admit(1, 200, 1)).resolves.toBe(0);
    await expect(pace.admit(1, 200, 1)).resolves.toBe(0);

    // A late answer must not open seconds without asking: a flood would go in unpaced while the database is busiest.
    expect(asked).toBe(2);
    expect(entries.filter((entry) => /answered the intake pace late/.test(String(entry.message)))).toHaveLength(1);
  });

  it('when batches wait or are refused, then the metrics count them by source and outcome, and the seconds waited', async () => {
    const count = async (name: string, labels: Record<string, string>) =>
      (await metricsRegistry.getSingleMetric(name)!.get()).values.find((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
        ?.value ?? 0;
    const before = {
      waited: await count('ecomm_intake_paced_total', { source: 'sync', outcome: 'waited' }),
      refused: await count('ecomm_intake_paced_total', { source: 'sync', outcome: 'refused' }),
      seconds: await count('ecomm_intake_wait_seconds_total', { source: 'sync' }),
    };
    const pace = new IntakePace({ ...options, maxWaitMs: 1000 }, new FakeIntakePaceRepository(), { clock: () => 0, wait: async () => undefined });

    await pace.admit(1, 200, 1); // the burst
    await pace.admit(1, 200, 1); // waits 1 s
    await expect(pace.admit(1, 200, 1)).rejects.toMatchObject({ status: 429 });

    expect(await count('ecomm_intake_paced_total', { source: 'sync', outcome: 'waited' })).toBe(before.waited + 1);
    expect(await count('ecomm_intake_paced_total', { source: 'sync', outcome: 'refused' })).toBe(before.refused + 1);
    expect(await count('ecomm_intake_wait_seconds_total', { source: 'sync' })).toBe(before.seconds + 1);
  });

  it('when the rate is 0, then every batch goes through at once, whatever its size', async () => {
    const { pace } = heldPace({ objectsPerSecond: 0, burstObjects: 0, maxWaitMs: 0, maxHeldBytes: 0 });
    await expect(Promise.all([pace.admit(1, 200, 1e6), pace.admit(1, 200, 1e6)])).resolves.toBeDefined();
  });

  it('when waiting batches hold the most bytes the replica may hold, then the next one that must wait gets 429 at once and takes nothing of the pace', async () => {
    const { pace, paces, waits, untilHeld, releaseNext } = heldPace();
    await pace.admit(1, 200, 60_000); // the burst: no wait
    const held = pace.admit(1, 100, 60_000); // waits 0.5 s, holding 60,000 bytes
    await untilHeld();
    const refused = pace.admit(2, 200, 1).then(() => pace.admit(2, 200, 50_000)); // portal 2's second batch would wait: 110,000 bytes held

    await expect(refused).rejects.toMatchObject({
      status: 429,
      headers: { 'retry-after': '1' },
      message: expect.stringMatching(/holds as many waiting batches/),
    });
    // Portal 2's pace holds its first batch only: its `due` is one burst (1 s) ahead.
    expect(await paces.find(2)).toBe(1000);
    await releaseNext();
    await held;
    // Portal 2 kept its place: once the bytes are free, its batch waits as it would have.
    const next = pace.admit(2, 200, 50_000);
    await releaseNext();
    await expect(next).resolves.toBe(1000); // 200 objects at 200 a second
    expect(waits).toEqual([500, 1000]);
  });

  it('when a wait ends, then its bytes are free for the next batch that must wait', async () => {
    const { pace, releaseNext } = heldPace({ maxHeldBytes: 60_000 });
    await pace.admit(1, 200, 60_000);
    const first = pace.admit(1, 100, 60_000);
    await releaseNext();
    await first;
    const second = pace.admit(1, 100, 60_000);
    await releaseNext();
    await expect(second).resolves.toBe(500);
  });
});
