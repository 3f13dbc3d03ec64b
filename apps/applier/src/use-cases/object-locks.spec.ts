import { ObjectLocks } from './object-locks';

/** A piece of work that records when it starts and ends, and ends when the test says so. */
function controlled(log: string[], name: string) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish,
    work: async () => {
      log.push(`start ${name}`);
      await finished;
      log.push(`end ${name}`);
      return name;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ObjectLocks', () => {
  it('when two pieces of work share a key, then the second starts only after the first ended', async () => {
    const locks = new ObjectLocks();
    const log: string[] = [];
    const a = controlled(log, 'a');
    const b = controlled(log, 'b');
    const first = locks.run(['x', 'y'], a.work);
    const second = locks.run(['y', 'z'], b.work);
    await settle();
    expect(log).toEqual(['start a']);
    a.finish();
    await first;
    await settle();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    b.finish();
    expect(await second).toBe('b');
    expect(locks.size).toBe(0);
  });

  it('when pieces of work hold disjoint keys, then they run at the same time', async () => {
    const locks = new ObjectLocks();
    const log: string[] = [];
    const a = controlled(log, 'a');
    const b = controlled(log, 'b');
    const both = Promise.all([locks.run(['x'], a.work), locks.run(['y'], b.work)]);
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    b.finish();
    a.finish();
    expect(await both).toEqual(['a', 'b']);
  });

  it('when keys are queued for in opposite orders, then nothing waits in a cycle and work runs in arrival order', async () => {
    const locks = new ObjectLocks();
    const log: string[] = [];
    const pieces = ['a', 'b', 'c'].map((name) => controlled(log, name));
    const runs = [locks.run(['x', 'y'], pieces[0].work), locks.run(['y', 'x'], pieces[1].work), locks.run(['x'], pieces[2].work)];
    for (const piece of pieces) {
      piece.finish();
      await settle();
    }
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('when a piece of work fails, then the keys are released and the next one runs', async () => {
    const locks = new ObjectLocks();
    await expect(locks.run(['x'], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await locks.run(['x'], async () => 'next')).toBe('next');
    expect(locks.size).toBe(0);
  });
});
