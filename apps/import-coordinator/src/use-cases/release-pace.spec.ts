import { FakeIntakePaceRepository, recordingLogger } from '@ecomm-sync/testing';
import { ReleasePace } from './release-pace';

// 200 objects a second, 200 at once, a take may wait up to 5 s: a page of 200 beyond the burst waits 1 s.
const rate = { objectsPerSecond: 200, burstObjects: 200, maxWaitMs: 5000 };

/** A release's pace on a clock that moves only by the waits it records; `others` says whether other portals are sending. */
function pacedRelease(
  paces = new FakeIntakePaceRepository(),
  overrides: Partial<typeof rate & { sharedObjectsPerSecond: number }> = {},
  others = { sending: false },
) {
  let now = 0;
  const waits: number[] = [];
  const pace = new ReleasePace({ ...rate, ...overrides }, paces, {
    clock: () => now,
    wait: async (ms) => {
      waits.push(ms);
      now += ms;
    },
    sending: { othersSending: () => others.sending },
  });
  return { pace, paces, waits, at: () => now };
}

describe('ReleasePace', () => {
  it('when a release goes beyond its portal’s burst, then each page waits for the rate', async () => {
    const { pace, waits } = pacedRelease();

    for (let page = 0; page < 4; page++) await pace.take(1, 200);

    expect(waits).toEqual([1000, 1000, 1000]);
  });

  it('when the portal’s sync batches took its pace up to the longest wait, then the release waits for room instead of pushing them into 429s', async () => {
    const shared = new FakeIntakePaceRepository();
    await shared.take(1, 6000, 0, { latestDue: 6000, plausibleUntil: 66_000 }); // the gateway's batches: the portal's due is as far as a take may leave it
    const { pace, waits, at } = pacedRelease(shared);

    await pace.take(1, 200);

    // Refused until 1 s of room came back (5 s of wait at most for what it takes), then it waited 5 s for its turn.
    expect(waits).toEqual([1000, 5000]);
    expect(await shared.find(1)).toBe(7000);
    expect(at()).toBe(6000);
  });

  it('when a page is bigger than one take can ever be granted, then it is taken in parts, each within the longest wait', async () => {
    // 20 a second, nothing at once, 5 s at most: one take is granted 100 objects at most.
    const { pace, waits } = pacedRelease(undefined, { objectsPerSecond: 20, burstObjects: 0 });

    await pace.take(1, 250);

    expect(waits).toEqual([5000, 5000, 2500]);
  });

  it('when the service stops while a page waits, then the take rejects and the page is not released', async () => {
    const stopping = new AbortController();
    const pace = new ReleasePace(rate, new FakeIntakePaceRepository(), {
      clock: () => 0,
      wait: (_ms, signal) =>
        new Promise((_, reject) => {
          if (signal?.aborted) reject(new Error('stopped'));
          signal?.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    });
    await pace.take(1, 200); // the burst

    const waiting = pace.take(1, 200, stopping.signal);
    stopping.abort();

    await expect(waiting).rejects.toThrow('stopped');
  });

  it('when the service stops while an admitted page waits for its turn, then what it took is the portal’s again', async () => {
    const stopping = new AbortController();
    const paces = new FakeIntakePaceRepository();
    let onWait: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (onWait = resolve));
    const pace = new ReleasePace(rate, paces, {
      clock: () => 0,
      wait: (_ms, signal) =>
        new Promise((_, reject) => {
          onWait();
          signal?.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    });
    await pace.take(1, 200); // the burst: due 1,000

    const second = pace.take(1, 200, stopping.signal); // taken (due 2,000), waits 1 s
    await waiting;
    stopping.abort();

    await expect(second).rejects.toThrow('stopped');
    expect(await paces.find(1)).toBe(1000);
  });

  it('when a page that took the pace is not released after all, then its objects are the portal’s again', async () => {
    const { pace, paces } = pacedRelease();
    await pace.take(1, 200);
    const charged = await pace.take(1, 200);

    await pace.giveBack(1, charged);

    expect(charged).toBe(1000);
    expect(await paces.find(1)).toBe(1000);
  });

  it('when other portals send too, then the release is taken at the shared rate, and at its own again once they stop', async () => {
    const others = { sending: true };
    const { pace, waits } = pacedRelease(undefined, { sharedObjectsPerSecond: 100 }, others);

    await pace.take(1, 200); // the burst: 200 objects, 2 s of the shared rate
    const beside = await pace.take(1, 200); // 2 s at 100 a second
    others.sending = false;
    await pace.take(1, 200); // 1 s at 200 a second, behind the 2 s before

    expect(beside).toBe(2000);
    expect(waits).toEqual([2000, 2000]);
  });

  it('when a page charged at the shared rate is given back after the others stopped, then the portal gets back what it was charged', async () => {
    const others = { sending: true };
    const { pace, paces } = pacedRelease(undefined, { sharedObjectsPerSecond: 100 }, others);
    await pace.take(1, 200); // due 2,000
    const charged = await pace.take(1, 200); // due 4,000
    others.sending = false;

    await pace.giveBack(1, charged);

    expect(await paces.find(1)).toBe(2000);
  });

  it.each([
    ['a negative rate', { objectsPerSecond: -1 }],
    ['a pace that can never take one object', { objectsPerSecond: 0.1, burstObjects: 0, maxWaitMs: 1000 }],
    ['a negative shared rate', { sharedObjectsPerSecond: -1 }],
    ['a shared rate that can never take one object', { burstObjects: 0, sharedObjectsPerSecond: 0.1, maxWaitMs: 1000 }],
  ])('when configured with %s, then it refuses to start, saying what to fix', (_, overrides) => {
    expect(() => new ReleasePace({ ...rate, ...overrides }, new FakeIntakePaceRepository())).toThrow(/INTAKE_/);
  });

  it('when the rate is 0, then nothing waits and the database is not asked', async () => {
    const paces = { take: () => Promise.reject(new Error('must not be asked')), giveBack: () => Promise.reject(new Error('must not be asked')) };
    await expect(new ReleasePace({ ...rate, objectsPerSecond: 0 }, paces).take(1, 200)).resolves.toBe(0);
  });

  it('when the pace cannot be read, then the page goes out unpaced and the warning says so', async () => {
    const { logger, entries } = recordingLogger();
    const broken = { take: () => Promise.reject(new Error('connection closed')), giveBack: async () => undefined };
    const pace = new ReleasePace(rate, broken, { wait: () => Promise.reject(new Error('must not wait')), logger });

    await expect(pace.take(1, 200)).resolves.toBe(0);

    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/released unpaced/) }));
  });

  it('when the database cannot be reached, then the take fails, having given back what it took, and nothing goes out unpaced', async () => {
    const paces = new FakeIntakePaceRepository();
    let takes = 0;
    const away = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), { name: 'MongoServerSelectionError' });
    const flaky = {
      take: (...args: Parameters<FakeIntakePaceRepository['take']>) => (++takes === 1 ? paces.take(...args) : Promise.reject(away)),
      giveBack: (...args: Parameters<FakeIntakePaceRepository['giveBack']>) => paces.giveBack(...args),
    };
    // At most 100 objects a take: a page of 200 is taken in two parts, and the second finds the database away.
    const release = new ReleasePace({ ...rate, burstObjects: 100, maxWaitMs: 0 }, flaky, { clock: () => 0, wait: async () => undefined });

    await expect(release.take(1, 200)).rejects.toThrow(/ECONNREFUSED/);

    expect(await paces.find(1)).toBe(0);
  });
});
