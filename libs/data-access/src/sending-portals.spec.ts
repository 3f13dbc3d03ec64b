import { SendingPortals, servicesSendingPortals } from './sending-portals';

/** Paces whose `due` the test sets per portal; `sendingSince` answers as the repository does, and counts its reads. */
function paces() {
  const due = new Map<number, number>();
  let failWith: Error | undefined;
  const asked: number[] = [];
  return {
    due,
    asked,
    fail: (error?: Error) => (failWith = error),
    sendingSince: async (since: number, limit: number) => {
      asked.push(since);
      if (failWith) throw failWith;
      return [...due]
        .filter(([, at]) => at > since)
        .slice(0, limit)
        .map(([id]) => id);
    },
  };
}

function portals() {
  const store = paces();
  let now = 1_000_000;
  let elapsed = 0;
  const failures: unknown[] = [];
  const sending = new SendingPortals(store, { clock: () => now, elapsed: () => elapsed, onFailure: (error) => failures.push(error) });
  return {
    store,
    sending,
    failures,
    at: (ms: number) => (now = ms),
    after: (ms: number) => (elapsed += ms),
  };
}

describe('SendingPortals', () => {
  it.each<[string, [number, number][], number, boolean]>([
    ['when no portal took intake, then none is sending', [], 1, false],
    ['when only the asking portal took intake within the window, then no other is sending', [[1, 999_000]], 1, false],
    ['when another portal took intake within the window, then another is sending', [[2, 996_000]], 1, true],
    ['when another portal’s last intake lies just outside the window, then none is', [[2, 995_000]], 1, false],
    ['when another portal has a backlog (its due ahead), then it is sending', [[2, 1_030_000]], 1, true],
    [
      'when the asking portal and another both sent, then another is sending, whichever is read first',
      [
        [1, 999_000],
        [2, 999_500],
      ],
      1,
      true,
    ],
    [
      'when several others sent, then another is sending for any portal',
      [
        [2, 999_000],
        [3, 999_000],
        [4, 999_000],
      ],
      3,
      true,
    ],
  ])('%s', async (_, dues, portalId, expected) => {
    const { store, sending } = portals();
    for (const [id, due] of dues) store.due.set(id, due);
    await sending.read();
    expect(sending.othersSending(portalId)).toBe(expected);
  });

  it('when asked before any read answered, then no other portal counts, and the read is started', async () => {
    const { store, sending } = portals();
    store.due.set(2, 999_000);
    expect(sending.othersSending(1)).toBe(false);
    expect(store.asked).toEqual([995_000]);
    await sending.read(); // the read under way: not a second one
    expect(store.asked).toHaveLength(1);
    expect(sending.othersSending(1)).toBe(true);
  });

  it('when asked again within a second of the last read, then it answers from it without reading; after a second, it reads again', async () => {
    const { store, sending, after, at } = portals();
    await sending.read();
    store.due.set(2, 999_000);
    after(999);
    expect(sending.othersSending(1)).toBe(false);
    expect(store.asked).toHaveLength(1);
    after(1);
    at(1_001_000);
    sending.othersSending(1);
    await new Promise(setImmediate);
    expect(store.asked).toEqual([995_000, 996_000]);
    expect(sending.othersSending(1)).toBe(true);
  });

  it('when a read fails, then the last answer stays, and the failure is told once until a read succeeds', async () => {
    const { store, sending, failures } = portals();
    store.due.set(2, 999_000);
    await sending.read();
    store.fail(new Error('no database'));
    await sending.read();
    await sending.read();
    expect(sending.othersSending(1)).toBe(true);
    expect(failures).toEqual([new Error('no database')]);
    store.fail(undefined);
    await sending.read();
    store.fail(new Error('again'));
    await sending.read();
    expect(failures).toHaveLength(2);
  });

  it.each([
    ['the reads since failed', true],
    ['no one asked since', false],
  ])('when the last answer is older than the window because %s, then the portals it found no longer count', async (_, failing) => {
    const { store, sending, after } = portals();
    store.due.set(2, 999_000);
    await sending.read();
    expect(sending.othersSending(1)).toBe(true);
    if (failing) store.fail(new Error('no database'));
    after(4_000);
    if (failing) await sending.read();
    after(1_001);

    expect(sending.othersSending(1)).toBe(false);
  });

  it('when a read never answers, then it counts as failed after its time limit, the last answer stays, and the next read may start', async () => {
    let hang = false;
    const failures: unknown[] = [];
    const store = { sendingSince: () => (hang ? new Promise<number[]>(() => undefined) : Promise.resolve([2])) };
    const sending = new SendingPortals(store, { clock: () => 0, onFailure: (error) => failures.push(error), readTimeoutMs: 20 });
    await sending.read();
    hang = true;

    await sending.read();

    expect(failures).toEqual([new Error('no answer within 20 ms')]);
    expect(sending.othersSending(1)).toBe(true);
    store.sendingSince = () => Promise.resolve([]);
    await sending.read();
    expect(sending.othersSending(1)).toBe(false);
  });

  it("when the services' SendingPortals cannot read twice in a row, then it warns once, in the services' words", async () => {
    const warnings: [string, Record<string, unknown>][] = [];
    const failing = { sendingSince: () => Promise.reject(new Error('no database')) };
    const sending = servicesSendingPortals(failing, () => 0, { warn: (message, meta) => void warnings.push([message, meta]) });

    await sending.read();
    await sending.read();

    expect(warnings).toEqual([
      ['which portals are sending could not be read; the last answer counts until it is older than the sending window', { error: 'Error: no database' }],
    ]);
  });

  it('when telling a failure throws, then the read still ends quietly', async () => {
    const failing = { sendingSince: () => Promise.reject(new Error('no database')) };
    const sending = new SendingPortals(failing, {
      clock: () => 0,
      onFailure: () => {
        throw new Error('the logger broke');
      },
    });

    await expect(sending.read()).resolves.toBeUndefined();
  });

  it.each<[string, [number, number][], number, number, boolean]>([
    ['when another portal asked here within the window, then it is sending before any read says so', [[2, 0]], 1, 5_000, true],
    ['when another portal asked here just outside the window, then it is not', [[2, 0]], 1, 5_001, false],
    ['when only this portal asked here, then no other is sending', [[1, 0]], 1, 4_000, false],
    [
      'when the oldest that asked went quiet but a later one did not, then the later one counts',
      [
        [2, 0],
        [3, 3_000],
      ],
      1,
      6_000,
      true,
    ],
    [
      'when another asked before this portal asked again, then it still counts while within the window',
      [
        [2, 0],
        [1, 3_000],
      ],
      1,
      4_000,
      true,
    ],
  ])('%s', (_, earlier, portalId, at, expected) => {
    const { sending, after } = portals();
    let elapsed = 0;
    for (const [id, ms] of earlier) {
      after(ms - elapsed);
      elapsed = ms;
      sending.othersSending(id);
    }
    after(at - elapsed);
    expect(sending.othersSending(portalId)).toBe(expected);
  });
});
