import { compareRevisions, nextRevision } from './revision-order';

describe('revision order', () => {
  it.each([
    ['an older state revision', { rev: 1, settingsRev: 9 }, { rev: 2, settingsRev: 1 }, -1],
    ['a newer state revision', { rev: 3, settingsRev: 1 }, { rev: 2, settingsRev: 5 }, 1],
    ['the same state mapped with older settings', { rev: 2, settingsRev: 1 }, { rev: 2, settingsRev: 2 }, -1],
    ['the same state mapped with newer settings', { rev: 2, settingsRev: 3 }, { rev: 2, settingsRev: 2 }, 1],
    ['the same revision', { rev: 2, settingsRev: 2 }, { rev: 2, settingsRev: 2 }, 0],
  ])('when comparing %s, then the sign says which is newer', (_case, a, b, sign) => {
    expect(Math.sign(compareRevisions(a, b))).toBe(sign);
  });

  it.each([
    ['a state stored anew', null, 1_700_000_000_000, 1_700_000_000_000],
    ['a state stored anew with the clock at zero', null, 0, 1],
    ['a write after one in the past', 5, 1_700_000_000_000, 1_700_000_000_000],
    ['a second write within the same millisecond', 1_700_000_000_000, 1_700_000_000_000, 1_700_000_000_001],
    ['a write after one that ran ahead of the clock', 1_700_000_000_010, 1_700_000_000_000, 1_700_000_000_011],
    ['a fractional clock', null, 1_700_000_000_000.7, 1_700_000_000_000],
  ])('when %s takes its revision, then it is above the previous one and not below the clock', (_case, previous, now, expected) => {
    expect(nextRevision(previous, now)).toBe(expected);
  });
});
