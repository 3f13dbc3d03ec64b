import { randomHex } from './random-hex';

describe('randomHex', () => {
  it.each([8, 16, 100])('when %i bytes are asked for, then the id is twice as many lower-case hex digits', (bytes) => {
    expect(randomHex(bytes)).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
  });

  it('when many ids are drawn, over several refills of the pool, then none repeats', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => randomHex(i % 2 === 0 ? 16 : 8));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('when an id does not fit in what is left of the pool, then it is drawn whole from a fresh pool', () => {
    const ids = Array.from({ length: 300 }, () => randomHex(15)); // 4096 is not a multiple of 15
    expect(ids.every((id) => id.length === 30)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([0, -1, 1.5, 4097])('when %s bytes are asked for, then it refuses rather than answer a shorter id', (bytes) => {
    expect(() => randomHex(bytes)).toThrow(RangeError);
  });
});
