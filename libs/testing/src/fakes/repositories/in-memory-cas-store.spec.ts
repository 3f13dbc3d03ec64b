import { InMemoryCasStore } from './in-memory-cas-store';

describe('InMemoryCasStore', () => {
  it('when a value is inserted, then it is read at revision 0, and its id cannot be inserted again', () => {
    const store = new InMemoryCasStore<{ n: number }>();
    expect(store.insert('a', { n: 1 })).toBe(true);
    expect(store.insert('a', { n: 2 })).toBe(false);
    expect(store.get('a')).toEqual({ rev: 0, value: { n: 1 } });
    expect(store.get('b')).toBeNull();
  });

  it.each([
    ['the revision read', 0, true, { rev: 1, value: { n: 2 } }],
    ['an older revision', -1, false, { rev: 0, value: { n: 1 } }],
    ['a revision not yet written', 1, false, { rev: 0, value: { n: 1 } }],
  ])('when a write names %s, then it lands: %s', (_case, expectedRev, landed, stored) => {
    const store = new InMemoryCasStore<{ n: number }>();
    store.insert('a', { n: 1 });
    expect(store.compareAndSet('a', expectedRev, { n: 2 })).toBe(landed);
    expect(store.get('a')).toEqual(stored);
  });

  it('when two writers read the same revision, then only the first write lands', () => {
    const store = new InMemoryCasStore<{ n: number }>();
    store.insert('a', { n: 0 });
    const [first, second] = [store.get('a')!, store.get('a')!];
    expect(store.compareAndSet('a', first.rev, { n: 1 })).toBe(true);
    expect(store.compareAndSet('a', second.rev, { n: 2 })).toBe(false);
    expect(store.compareAndSet('b', 0, { n: 2 })).toBe(false);
    expect(store.all()).toEqual([{ id: 'a', rev: 1, value: { n: 1 } }]);
  });

  it('when a value read or written is changed afterwards, then what is stored stays as it was', () => {
    const store = new InMemoryCasStore<{ list: number[] }>();
    const value = { list: [1] };
    store.insert('a', value);
    value.list.push(2);
    store.get('a')!.value.list.push(3);
    expect(store.get('a')!.value).toEqual({ list: [1] });
  });
});
