import { FakeIntakePaceRepository, recordingLogger } from '@ecomm-sync/testing';
import { ReleasePace } from './release-pace';

// 200 objects a second, 200 at once: a page of 200 beyond the burst waits 1 s.
const refill = { objectsPerSecond: 200, burstObjects: 200 };

describe('ReleasePace', () => {
  it('when a release goes beyond its portal’s burst, then each page waits for the rate, however long, and is never refused', async () => {
    const waits: number[] = [];
    const pace = new ReleasePace(refill, new FakeIntakePaceRepository(), { clock: () => 0, wait: async (ms) => void waits.push(ms) });

    for (let page = 0; page < 4; page++) await pace.take(1, 200);

    expect(waits).toEqual([1000, 2000, 3000]);
  });

  it('when the portal’s sync batches took its pace, then the release waits behind them: one pace for both', async () => {
    const shared = new FakeIntakePaceRepository();
    await shared.take(1, 1000, 0, 10_000); // what the gateway took for 200 objects
    const waits: number[] = [];
    const pace = new ReleasePace(refill, shared, { clock: () => 0, wait: async (ms) => void waits.push(ms) });

    await pace.take(1, 200);

    expect(waits).toEqual([1000]);
  });

  it('when configured with a negative rate, then it refuses to start, saying what to fix', () => {
    expect(() => new ReleasePace({ objectsPerSecond: -1, burstObjects: 400 }, new FakeIntakePaceRepository())).toThrow(/INTAKE_OBJECTS_PER_SECOND/);
  });

  it('when the rate is 0, then nothing waits', async () => {
    const paces = { take: () => Promise.reject(new Error('must not be asked')) };
    await expect(new ReleasePace({ objectsPerSecond: 0, burstObjects: 0 }, paces).take(1, 200)).resolves.toBeUndefined();
  });

  it('when the pace cannot be read, then the page goes out unpaced and the warning says so', async () => {
    const { logger, entries } = recordingLogger();
    const pace = new ReleasePace(
      refill,
      { take: () => Promise.reject(new Error('connection closed')) },
      { wait: () => Promise.reject(new Error('must not wait')), logger },
    );

    await expect(pace.take(1, 200)).resolves.toBeUndefined();

    expect(entries).toContainEqual(expect.objectContaining({ level: 'warn', message: expect.stringMatching(/released unpaced/) }));
  });
});
