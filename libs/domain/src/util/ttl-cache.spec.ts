import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('serves a value for its time to live, then loads it again', async () => {
    let now = 0;
    let loads = 0;
    const cache = new TtlCache<number>(100, 10, () => now);
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    now = 99;
    expect(await cache.get('k', load)).toBe(1);
    now = 100;
    expect(await cache.get('k', load)).toBe(2);
  });

  it('when a value is set, then reads within its time to live get it without a lookup, later ones load', async () => {
    let now = 0;
    const cache = new TtlCache<string | null>(100, 10, () => now);
    cache.set('k', null);
    expect(await cache.get('k', async () => 'loaded')).toBeNull();
    now = 100;
    expect(await cache.get('k', async () => 'loaded')).toBe('loaded');
  });

  it('shares one lookup between concurrent misses and does not keep failures', async () => {
    let loads = 0;
    const cache = new TtlCache<number>(1000);
    const results = await Promise.all([1, 2, 3].map(() => cache.get('k', async () => ++loads)));
    expect(results).toEqual([1, 1, 1]);
    await expect(cache.get('bad', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('bad', async () => 7)).toBe(7);
  });

  it('evicts the oldest entry beyond its size, and a zero time to live disables it', async () => {
    const cache = new TtlCache<string>(1000, 2);
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key);
    let reloaded = false;
    await cache.get('a', async () => ((reloaded = true), 'a'));
    expect(reloaded).toBe(true);
    let loads = 0;
    const off = new TtlCache<number>(0);
    await off.get('k', async () => ++loads);
    await off.get('k', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('when a key is deleted, then the next get loads it again and other keys stay cached', async () => {
    let loads = 0;
    const cache = new TtlCache<number>(1000, 10, () => 0);
    const load = async () => ++loads;
    await cache.get('a', load);
    await cache.get('b', load);
    cache.delete('a');
    expect(await cache.get('a', load)).toBe(3);
    expect(await cache.get('b', load)).toBe(2);
  });

  it('when the keys of a prefix are deleted, then those load again and the others stay cached', async () => {
    let loads = 0;
    const cache = new TtlCache<number>(1000, 10, () => 0);
    const load = async () => ++loads;
    for (const key of ['[1,"a","web"]', '[1,"a","default"]', '[1,"b","web"]']) await cache.get(key, load);
    cache.deleteStartingWith('[1,"a",');
    expect(await cache.get('[1,"a","web"]', load)).toBe(4);
    expect(await cache.get('[1,"a","default"]', load)).toBe(5);
    expect(await cache.get('[1,"b","web"]', load)).toBe(3);
  });

  it('when the entries whose value matches are deleted, then those load again, ones loading meanwhile go if they settle on a match, the others stay', async () => {
    let loads = 0;
    const cache = new TtlCache<{ owner: string; n: number }>(1000, 10, () => 0);
    const load = (owner: string) => async () => ({ owner, n: ++loads });
    const later = (owner: string) => {
      let finish: () => void = () => undefined;
      const loading = new Promise<{ owner: string; n: number }>((resolve) => (finish = () => resolve({ owner, n: ++loads })));
      return { finish, load: () => loading };
    };
    await cache.get('a1', load('a'));
    await cache.get('b1', load('b'));
    cache.set('a2', { owner: 'a', n: 0 });
    const [a3, b2] = [later('a'), later('b')];
    const pending = [cache.get('a3', a3.load), cache.get('b2', b2.load)];

    cache.deleteWhere((value) => value.owner === 'a');
    a3.finish();
    b2.finish();
    await Promise.all(pending);

    expect(await cache.get('a1', load('a'))).toEqual({ owner: 'a', n: 5 });
    expect(await cache.get('a2', load('a'))).toEqual({ owner: 'a', n: 6 });
    expect(await cache.get('a3', load('a'))).toEqual({ owner: 'a', n: 7 });
    expect(await cache.get('b1', load('b'))).toEqual({ owner: 'b', n: 2 });
    expect(await cache.get('b2', load('b'))).toEqual({ owner: 'b', n: 4 });
  });

  it('when a get comes after a change that overtook a load, then it loads again and is not handed the load that began before', async () => {
    const cache = new TtlCache<{ owner: string; n: number }>(1000, 10, () => 0);
    let finish: () => void = () => undefined;
    const before = cache.get('a1', () => new Promise((resolve) => (finish = () => resolve({ owner: 'a', n: 1 }))));

    cache.deleteWhere((value) => value.owner === 'a');
    const after = cache.get('a1', async () => ({ owner: 'a', n: 2 }));
    finish();

    expect(await before).toEqual({ owner: 'a', n: 1 });
    expect(await after).toEqual({ owner: 'a', n: 2 });
    expect(await cache.get('a1', async () => ({ owner: 'a', n: 3 }))).toEqual({ owner: 'a', n: 2 });
  });
});
