import { runBounded } from './run-bounded';

/** Work that records when each item starts and ends, and finishes when the test says. */
function gatedWork(fail: ReadonlySet<number> = new Set()) {
  const events: string[] = [];
  const gates = new Map<number, () => void>();
  let running = 0;
  let most = 0;
  const work = (item: number) => {
    events.push(`start ${item}`);
    most = Math.max(most, ++running);
    return new Promise<void>((resolve, reject) =>
      gates.set(item, () => {
        running--;
        events.push(`end ${item}`);
        if (fail.has(item)) reject(new Error(`item ${item} failed`));
        else resolve();
      }),
    );
  };
  /** Ends the running items one by one, oldest first, until all are done. */
  const drain = async (done: Promise<unknown>) => {
    let settled = false;
    void done.then(
      () => (settled = true),
      () => (settled = true),
    );
    while (!settled) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const [item, open] = gates.entries().next().value ?? [];
      if (open) {
        gates.delete(item!);
        open();
      }
    }
  };
  return { events, work, drain, most: () => most };
}

describe('runBounded', () => {
  it.each([
    { items: 5, concurrency: 2, most: 2 },
    { items: 3, concurrency: 10, most: 3 },
    { items: 4, concurrency: 1, most: 1 },
    { items: 1, concurrency: 0, most: 1 },
    { items: 2, concurrency: Number.NaN, most: 1 },
    { items: 3, concurrency: 2.5, most: 2 },
  ])('when $items items run $concurrency at a time, then every item runs once, in order, and at most $most at once', async ({ items, concurrency, most }) => {
    const gated = gatedWork();
    const done = runBounded(
      Array.from({ length: items }, (_, i) => i),
      concurrency,
      gated.work,
    );
    await gated.drain(done);
    await done;
    expect(gated.events.filter((event) => event.startsWith('start'))).toEqual(Array.from({ length: items }, (_, i) => `start ${i}`));
    expect(gated.most()).toBe(most);
  });

  it('when an item fails, then no later item starts, the running ones finish, and the failure is thrown', async () => {
    const gated = gatedWork(new Set([0]));
    const done = runBounded([0, 1, 2, 3], 2, gated.work);
    await gated.drain(done);
    await expect(done).rejects.toThrow('item 0 failed');
    expect(gated.events).toEqual(['start 0', 'start 1', 'end 0', 'end 1']);
  });

  it('when there are no items, then nothing runs', async () => {
    const work = jest.fn();
    await runBounded([], 4, work);
    expect(work).not.toHaveBeenCalled();
  });
});
