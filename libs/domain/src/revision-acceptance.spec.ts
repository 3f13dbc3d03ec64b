import {
  appliedRevisionOf,
  batchedRevision,
  isKeptChangeDone,
  isRevisionToWrite,
  keptChangeLanded,
  lostRecord,
  MAX_REWRITE_ROUNDS,
  raceRepair,
  replacesKeptChange,
} from './revision-acceptance';
import type { Revision } from './revision-order';

const r = (rev: number, settingsRev = 1): Revision => ({ rev, settingsRev });

describe('isRevisionToWrite', () => {
  it.each<[string, Revision, Revision, boolean, boolean]>([
    ['a newer state', r(5), r(4), false, true],
    ['the same state mapped with newer settings', r(4, 2), r(4, 1), false, true],
    ['the same revision', r(4), r(4), false, false],
    ['the same revision re-applied', r(4), r(4), true, true],
    ['an older state', r(3), r(4), false, false],
    ['an older state re-applied', r(3), r(4), true, false],
    ['the same state mapped with older settings', r(4, 1), r(4, 2), true, false],
    ['any revision of an object never applied', r(1), appliedRevisionOf(undefined), false, true],
  ])('when %s then written is as the table says', (_case, candidate, applied, reapply, written) => {
    expect(isRevisionToWrite(candidate, applied, reapply)).toBe(written);
  });
});

describe('batchedRevision', () => {
  it.each<[string, Revision, Revision | undefined, { replaces: boolean; reapplies: boolean }]>([
    ['the first change of an object in the batch', r(1), undefined, { replaces: true, reapplies: true }],
    ['a newer change of the same object', r(2), r(1), { replaces: true, reapplies: true }],
    ['the same revision again', r(1), r(1), { replaces: false, reapplies: true }],
    ['an older change after a newer one', r(1), r(2), { replaces: false, reapplies: false }],
  ])('when %s then the batch keeps as the table says', (_case, incoming, known, expected) => {
    expect(batchedRevision(incoming, known)).toEqual(expected);
  });
});

describe('kept changes', () => {
  it.each<[string, Revision | undefined, Revision, boolean]>([
    ['nothing is kept', undefined, r(1), true],
    ['an older change is kept', r(1), r(2), true],
    ['the same revision is kept', r(2), r(2), true],
    ['a newer change is kept', r(3), r(2), false],
  ])('when %s then the incoming change replaces it: %s', (_case, stored, incoming, replaces) => {
    expect(replacesKeptChange(stored, incoming)).toBe(replaces);
  });

  it.each<[string, Revision | undefined, Revision, boolean]>([
    ['the written change is stored', r(2), r(2), true],
    ['a newer change was stored over it', r(3), r(2), true],
    ['an older change is still stored', r(1), r(2), false],
    ['the entry was removed meanwhile (a release took what it replaced)', undefined, r(2), false],
  ])('when after writing %s then it landed: %s', (_case, storedNow, written, landed) => {
    expect(keptChangeLanded(storedNow, written)).toBe(landed);
  });

  it.each<[string, Revision, Revision, boolean]>([
    ['processed at the kept revision', r(2), r(2), true],
    ['processed at a newer revision', r(2), r(3), true],
    ['processed at an older revision (a newer change was kept meanwhile)', r(3), r(2), false],
  ])('when the object was %s then the kept change is done: %s', (_case, stored, processed, done) => {
    expect(isKeptChangeDone(stored, processed)).toBe(done);
  });
});

describe('after a race between writers', () => {
  it.each<[string, Revision, Revision, 'superseded' | 'contended']>([
    ['a newer revision is recorded', r(2), r(3), 'superseded'],
    ['the same revision is recorded', r(2), r(2), 'contended'],
    ['an older revision is recorded', r(3), r(2), 'contended'],
  ])('when %s then the lost record is %s', (_case, written, recorded, verdict) => {
    expect(lostRecord(written, recorded)).toBe(verdict);
  });

  it.each<[string, { superseded: string[]; contended: string[] }, number, { refresh: string[]; rewrite: string[] }]>([
    ['only superseded objects', { superseded: ['a'], contended: [] }, 1, { refresh: ['a'], rewrite: [] }],
    ['contended objects with rounds left', { superseded: ['a'], contended: ['b'] }, 1, { refresh: ['a'], rewrite: ['b'] }],
    ['contended objects in the last round', { superseded: ['a'], contended: ['b'] }, MAX_REWRITE_ROUNDS, { refresh: ['a', 'b'], rewrite: [] }],
    ['nothing lost', { superseded: [], contended: [] }, 1, { refresh: [], rewrite: [] }],
  ])('when %s then the repair is as the table says', (_case, lost, round, expected) => {
    expect(raceRepair(lost, round)).toEqual(expected);
  });
});
