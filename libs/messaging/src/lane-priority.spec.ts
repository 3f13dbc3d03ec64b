import { AsyncLocalStorage } from 'node:async_hooks';
import { LanePriority } from './lane-priority';

describe('LanePriority', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Interactive work that runs until `finish` is called. */
  function interactiveWork(priority: LanePriority) {
    let finish!: () => void;
    const done = priority.run('interactive', () => new Promise<void>((resolve) => (finish = resolve)));
    return { finish, done };
  }

  it('when no interactive work runs, then a bulk delivery is handled at once', () => {
    const priority = new LanePriority(100);
    const handled: string[] = [];
    priority.deliver('bulk', () => handled.push('bulk'));
    expect(handled).toEqual(['bulk']);
  });

  it('when interactive work runs, then a bulk delivery waits until it is done, and interactive deliveries never wait', async () => {
    const priority = new LanePriority(100);
    const handled: string[] = [];
    const work = interactiveWork(priority);
    priority.deliver('bulk', () => handled.push('bulk'));
    priority.deliver('interactive', () => handled.push('interactive'));
    expect(handled).toEqual(['interactive']);
    expect(priority.holding).toBe(1);

    work.finish();
    await work.done;
    expect(handled).toEqual(['interactive', 'bulk']);
    expect(priority.holding).toBe(0);
  });

  it('when two interactive handlers run, then bulk deliveries wait for the last of them', async () => {
    const priority = new LanePriority(100);
    const handled: string[] = [];
    const first = interactiveWork(priority);
    const second = interactiveWork(priority);
    priority.deliver('bulk', () => handled.push('bulk'));

    first.finish();
    await first.done;
    expect(handled).toEqual([]);
    second.finish();
    await second.done;
    expect(handled).toEqual(['bulk']);
  });

  it('when interactive work runs longer than the hold, then held bulk deliveries go on after the hold: bulk work never starves', () => {
    const priority = new LanePriority(100);
    const handled: number[] = [];
    interactiveWork(priority);
    priority.deliver('bulk', () => handled.push(1));
    jest.advanceTimersByTime(60);
    priority.deliver('bulk', () => handled.push(2));
    jest.advanceTimersByTime(39);
    expect(handled).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(handled).toEqual([1, 2]);
  });

  it('when interactive work fails, then held bulk deliveries go on all the same', async () => {
    const priority = new LanePriority(100);
    const handled: string[] = [];
    const failed = priority.run('interactive', async () => {
      priority.deliver('bulk', () => handled.push('bulk'));
      throw new Error('failed');
    });
    await expect(failed).rejects.toThrow('failed');
    expect(handled).toEqual(['bulk']);
  });

  it('when bulk work runs, then it holds nothing', async () => {
    const priority = new LanePriority(100);
    const handled: string[] = [];
    await priority.run('bulk', async () => priority.deliver('bulk', () => handled.push('bulk')));
    expect(handled).toEqual(['bulk']);
  });

  it('when the hold is 0, then nothing is ever held', async () => {
    const priority = new LanePriority(0);
    const handled: string[] = [];
    interactiveWork(priority);
    priority.deliver('bulk', () => handled.push('bulk'));
    expect(handled).toEqual(['bulk']);
  });

  it('when closed (the broker closes), then every held delivery is handed over at once, and none is held after', () => {
    const priority = new LanePriority(100);
    const handled: number[] = [];
    interactiveWork(priority);
    priority.deliver('bulk', () => handled.push(1));
    priority.deliver('bulk', () => handled.push(2));
    priority.close();
    expect(handled).toEqual([1, 2]);
    priority.deliver('bulk', () => handled.push(3));
    expect(handled).toEqual([1, 2, 3]);
    jest.advanceTimersByTime(100);
    expect(handled).toEqual([1, 2, 3]);
  });

  it('when the hand-over of a held delivery throws, then it is told, the others are handed over, and the interactive work still succeeds', async () => {
    const errors: unknown[] = [];
    const priority = new LanePriority(100, (error) => errors.push(error));
    const handled: number[] = [];
    const work = interactiveWork(priority);
    priority.deliver('bulk', () => {
      throw new Error('broken hand-over');
    });
    priority.deliver('bulk', () => handled.push(2));

    work.finish();
    await expect(work.done).resolves.toBeUndefined();
    expect(handled).toEqual([2]);
    expect(errors).toEqual([new Error('broken hand-over')]);
  });

  it('when a held delivery is handed over at the end of interactive work, then it runs in the context it arrived in', async () => {
    const priority = new LanePriority(100);
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    let finish!: () => void;
    const done = context.run('interactive', () => priority.run('interactive', () => new Promise<void>((resolve) => (finish = resolve))));
    context.run('bulk', () => priority.deliver('bulk', () => seen.push(context.getStore())));

    finish();
    await done;
    expect(seen).toEqual(['bulk']);
  });
});
