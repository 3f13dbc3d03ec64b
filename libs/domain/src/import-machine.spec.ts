import type { ObjectType } from '@ecomm-sync/contracts';
import { importTransition, MAX_IMPORT_PAGES_PER_TYPE, type ImportEffect, type ImportEvent, type ImportState, type ImportTypeState } from './import-machine';
import { isReceivedPage, newImportTypes, receivedCounts, releaseStart } from './import-progress';

const T = 1_700_000_000_000;

/** An import of CONTACT and DEAL; `types` overrides parts of each type's state. */
function anImport(overrides: Partial<Omit<ImportState, 'types'>> = {}, types: Partial<Record<ObjectType, Partial<ImportTypeState>>> = {}): ImportState {
  const base = newImportTypes(['CONTACT', 'DEAL']);
  for (const [type, state] of Object.entries(types) as [ObjectType, Partial<ImportTypeState>][]) base[type] = { ...base[type]!, ...state };
  return {
    importStartedAt: T,
    status: 'initialized',
    types: base,
    failureReason: null,
    failedAt: null,
    completedAt: null,
    releasedThrough: null,
    releasedAt: null,
    releaseProgressAt: null,
    releaseOwner: null,
    webhookRequestedAt: null,
    webhookProblem: null,
    releaseProblem: null,
    ...overrides,
  };
}

const page = (objectType: ObjectType, pageNumber: number, itemCount: number): ImportEvent => ({ kind: 'page-received', objectType, pageNumber, itemCount });
const end = (objectType: ObjectType, pageCount: number, itemCount: number, at = T + 9): ImportEvent => ({
  kind: 'end-received',
  objectType,
  pageCount,
  itemCount,
  at,
});
const answer = (...importCounts: [number, unknown][]): ImportEvent => ({
  kind: 'webhook-answered',
  importCounts: importCounts.map(([settingsId, count]) => ({ settingsId, count })),
  at: T + 5,
});
const receiving = (contactPages: Record<string, number>) => anImport({ status: 'receiving' }, { CONTACT: { pageItems: contactPages } });
const DEAL_ENDED = { ended: true, pageCount: 0, itemCount: 0 };
/** A type's pages 1 to the most it takes, each empty. */
const fullPages: Record<string, number> = Object.fromEntries(Array.from({ length: MAX_IMPORT_PAGES_PER_TYPE }, (_, n) => [n + 1, 0]));
/** A type's pages 1 to one fewer than the most it takes. */
const almostFull: Record<string, number> = Object.fromEntries(Array.from({ length: MAX_IMPORT_PAGES_PER_TYPE - 1 }, (_, n) => [n + 1, 0]));

describe('importTransition', () => {
  it.each<[string, string, ImportState, ImportEvent, ImportState, ImportEffect[]]>([
    [
      'the webhook was queued',
      'the import remembers when, once',
      anImport(),
      { kind: 'webhook-requested', at: T + 1 },
      anImport({ webhookRequestedAt: T + 1 }),
      [],
    ],
    [
      'the webhook is queued again',
      'the first time stays',
      anImport({ webhookRequestedAt: T + 1 }),
      { kind: 'webhook-requested', at: T + 5 },
      anImport({ webhookRequestedAt: T + 1 }),
      [],
    ],
    [
      'a page arrives at an initialized import',
      'it is receiving and counts the page',
      anImport(),
      page('CONTACT', 1, 3),
      anImport({ status: 'receiving' }, { CONTACT: { pageItems: { 1: 3 } } }),
      [],
    ],
    ['another page arrives', 'it is counted beside the others', receiving({ 1: 3 }), page('CONTACT', 2, 2), receiving({ 1: 3, 2: 2 }), []],
    [
      'a page is sent again with other items',
      'it replaces its count instead of adding a page',
      receiving({ 1: 3, 2: 2 }),
      page('CONTACT', 1, 5),
      receiving({ 1: 5, 2: 2 }),
      [],
    ],
    [
      'the last page a type takes arrives',
      'it is counted',
      receiving(almostFull),
      page('CONTACT', MAX_IMPORT_PAGES_PER_TYPE, 4),
      receiving({ ...almostFull, [MAX_IMPORT_PAGES_PER_TYPE]: 4 }),
      [],
    ],
    [
      'a page is sent again to a type that holds the most pages it takes',
      'it still replaces its count',
      receiving(fullPages),
      page('CONTACT', 7, 9),
      receiving({ ...fullPages, 7: 9 }),
      [],
    ],
    [
      'the end counts match what was received',
      'the type has ended with those counts and the import goes on receiving',
      receiving({ 1: 3, 2: 2 }),
      end('CONTACT', 2, 5),
      anImport({ status: 'receiving' }, { CONTACT: { pageItems: { 1: 3, 2: 2 }, ended: true, pageCount: 2, itemCount: 5 } }),
      [],
    ],
    [
      'a type without pages ends with zero counts',
      'it has ended and the import stays initialized',
      anImport(),
      end('DEAL', 0, 0),
      anImport({}, { DEAL: DEAL_ENDED }),
      [],
    ],
    [
      'the last type ends',
      'the import is complete at the end and is released',
      anImport({ status: 'receiving' }, { CONTACT: { pageItems: { 1: 3 } }, DEAL: DEAL_ENDED }),
      end('CONTACT', 1, 3, T + 50),
      anImport({ status: 'complete', completedAt: T + 50 }, { CONTACT: { pageItems: { 1: 3 }, ended: true, pageCount: 1, itemCount: 3 }, DEAL: DEAL_ENDED }),
      [{ kind: 'release' }],
    ],
    [
      'the webhook answers a count for every type',
      'each type expects its count, null where the receiver could not tell',
      receiving({ 1: 3 }),
      answer([1, 12], [2, null], [3, 7]),
      anImport({ status: 'receiving' }, { CONTACT: { pageItems: { 1: 3 }, expectedCount: 12 }, DEAL: { expectedCount: null } }),
      [],
    ],
    [
      'the webhook answers counts that are not whole or below zero',
      'a count is rounded, and one below zero reads as not estimated; the import goes on',
      anImport(),
      answer([1, 12.6], [2, -3]),
      anImport({}, { CONTACT: { expectedCount: 13 }, DEAL: { expectedCount: null } }),
      [],
    ],
    [
      'the webhook answers a count as decimal text and another as a word',
      'the text is read as its number, the word as not estimated; the import goes on',
      anImport(),
      answer([1, '120'], [2, 'many']),
      anImport({}, { CONTACT: { expectedCount: 120 }, DEAL: { expectedCount: null } }),
      [],
    ],
    [
      'the webhook answers an entry without a count',
      'that type is not estimated; the import goes on',
      anImport(),
      answer([1, undefined], [2, ' 7.4 ']),
      anImport({}, { CONTACT: { expectedCount: null }, DEAL: { expectedCount: 7 } }),
      [],
    ],
    [
      "the webhook answer has no entry for a requested type's settingsId",
      'the import failed with a reason that names it',
      anImport(),
      answer([1, 12]),
      anImport({ status: 'failed', failureReason: "the receiver's answer has no importCounts entry for settingsId 2 (DEAL)", failedAt: T + 5 }),
      [{ kind: 'report-failure', reason: "the receiver's answer has no importCounts entry for settingsId 2 (DEAL)" }],
    ],
    [
      'the webhook of an import that receives pages fails',
      'the import goes on with its pages, and the problem is reported',
      receiving({ 1: 3 }),
      { kind: 'failed', reason: 'the receiver did not answer', at: T + 7 },
      anImport({ status: 'receiving', webhookProblem: { reason: 'the receiver did not answer', at: T + 7 } }, { CONTACT: { pageItems: { 1: 3 } } }),
      [{ kind: 'report-webhook-problem', reason: 'the receiver did not answer' }],
    ],
    [
      'the webhook of an import that recorded a webhook problem fails again',
      'the first problem stays recorded',
      anImport({ status: 'receiving', webhookProblem: { reason: 'first', at: T + 1 } }, { CONTACT: { pageItems: { 1: 3 } } }),
      { kind: 'failed', reason: 'the receiver did not answer', at: T + 7 },
      anImport({ status: 'receiving', webhookProblem: { reason: 'first', at: T + 1 } }, { CONTACT: { pageItems: { 1: 3 } } }),
      [{ kind: 'report-webhook-problem', reason: 'the receiver did not answer' }],
    ],
    [
      'an import that receives pages is answered without an entry for a type',
      'the types answered get their estimates, the other stays unknown, and the problem is reported',
      receiving({ 1: 3 }),
      answer([1, 12]),
      anImport(
        { status: 'receiving', webhookProblem: { reason: "the receiver's answer has no importCounts entry for settingsId 2 (DEAL)", at: T + 5 } },
        { CONTACT: { pageItems: { 1: 3 }, expectedCount: 12 } },
      ),
      [{ kind: 'report-webhook-problem', reason: "the receiver's answer has no importCounts entry for settingsId 2 (DEAL)" }],
    ],
    [
      'a complete import is released up to a page',
      'that page is the resume point, and the release is known to progress at that time',
      anImport({ status: 'complete', completedAt: T, releaseOwner: 'r1' }),
      { kind: 'release-progressed', through: 'CONTACT:3', done: false, at: T + 1, owner: 'r1' },
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 1, releaseOwner: 'r1' }),
      [],
    ],
    [
      'the release of a complete import finishes',
      'it is released at that time',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'DEAL:4', releaseOwner: 'r1' }),
      { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: T + 2, owner: 'r1' },
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'LINE_ITEM:done', releasedAt: T + 2, releaseProgressAt: T + 2, releaseOwner: 'r1' }),
      [],
    ],
    [
      'a releaser claims a complete import nobody released yet',
      'it holds the release from then on and releases',
      anImport({ status: 'complete', completedAt: T }),
      { kind: 'release-claimed', at: T + 5, staleBefore: T - 25, owner: 'r2' },
      anImport({ status: 'complete', completedAt: T, releaseProgressAt: T + 5, releaseOwner: 'r2' }),
      [{ kind: 'release' }],
    ],
    [
      'a releaser claims a release whose releaser last progressed before the look-back',
      'it takes it over where it stopped, as its owner',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 1, releaseOwner: 'r1' }),
      { kind: 'release-claimed', at: T + 40, staleBefore: T + 10, owner: 'r2' },
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 40, releaseOwner: 'r2' }),
      [{ kind: 'release' }],
    ],
    [
      'the releaser waits for its portal’s pace and says it still holds the release',
      'its claim stays fresh',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 1, releaseOwner: 'r1' }),
      { kind: 'release-held', at: T + 9, owner: 'r1' },
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 9, releaseOwner: 'r1' }),
      [],
    ],
    [
      'the releaser fails and drops its claim',
      'the next releaser may claim it at once, where it stopped',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 9, releaseOwner: 'r1' }),
      { kind: 'release-dropped', owner: 'r1', reason: 'publish not confirmed', at: T + 10 },
      anImport({
        status: 'complete',
        completedAt: T,
        releasedThrough: 'CONTACT:3',
        releaseProgressAt: null,
        releaseProblem: { reason: 'publish not confirmed', at: T + 10, tries: 1, since: T + 10 },
      }),
      [],
    ],
    [
      'the releaser fails again without releasing a page',
      'the problem is the last failure, counted as one more try in a row',
      anImport({
        status: 'complete',
        completedAt: T,
        releaseProgressAt: T + 40,
        releaseOwner: 'r2',
        releaseProblem: { reason: 'first', at: T + 10, tries: 2, since: T + 5 },
      }),
      { kind: 'release-dropped', owner: 'r2', reason: 'database away', at: T + 41 },
      anImport({
        status: 'complete',
        completedAt: T,
        releaseProgressAt: null,
        releaseProblem: { reason: 'database away', at: T + 41, tries: 3, since: T + 5 },
      }),
      [],
    ],
    [
      'a release that failed before releases a page',
      'the problem is cleared',
      anImport({
        status: 'complete',
        completedAt: T,
        releaseProgressAt: T + 40,
        releaseOwner: 'r2',
        releaseProblem: { reason: 'first', at: T + 10, tries: 2, since: T + 5 },
      }),
      { kind: 'release-progressed', through: 'CONTACT:1', done: false, at: T + 42, owner: 'r2' },
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:1', releaseProgressAt: T + 42, releaseOwner: 'r2' }),
      [],
    ],
    [
      'the owner releases through a page',
      'it still holds the release',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 9, releaseOwner: 'r1' }),
      { kind: 'release-progressed', through: 'CONTACT:5', done: false, at: T + 12, owner: 'r1' },
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:5', releaseProgressAt: T + 12, releaseOwner: 'r1' }),
      [],
    ],
    [
      'the owner finishes the release',
      'it is released, and names who finished it',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'DEAL:4', releaseProgressAt: T + 9, releaseOwner: 'r1' }),
      { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: T + 12, owner: 'r1' },
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'LINE_ITEM:done', releasedAt: T + 12, releaseProgressAt: T + 12, releaseOwner: 'r1' }),
      [],
    ],
  ])('when %s, then %s', (_when, _then, state, event, next, effects) => {
    expect(importTransition(state, event)).toEqual({ next, effects });
  });

  it.each<[string, ImportState, ImportEvent, ImportEffect[]]>([
    [
      'an end is sent again with its counts after its type ended, then nothing changes and nothing is refused',
      anImport({ status: 'receiving' }, { CONTACT: { pageItems: { 1: 2 }, ended: true, pageCount: 1, itemCount: 2 } }),
      end('CONTACT', 1, 2),
      [],
    ],
    [
      'the last end is sent again after the import completed, then nothing changes and no second release is asked',
      anImport(
        { status: 'complete', completedAt: T },
        { CONTACT: { ended: true, pageCount: 2, itemCount: 5 }, DEAL: { ended: true, pageCount: 0, itemCount: 0 } },
      ),
      end('CONTACT', 2, 5),
      [],
    ],
    ['the start of an initialized import is announced, then the webhook is requested', anImport(), { kind: 'start-announced' }, [{ kind: 'request-webhook' }]],
    ['the start of a receiving import is announced again, then no webhook goes out', receiving({}), { kind: 'start-announced' }, []],
    [
      'the start of an initialized import whose webhook was queued is announced again, then no second webhook goes out',
      anImport({ webhookRequestedAt: T + 1 }),
      { kind: 'start-announced' },
      [],
    ],
    [
      'the start of a failed import is announced, then no webhook goes out',
      anImport({ status: 'failed', failureReason: 'x' }),
      { kind: 'start-announced' },
      [],
    ],
    ['a page is sent again with the same items, then there is nothing to write', receiving({ 1: 3 }), page('CONTACT', 1, 3), []],
    ['a complete import fails, then it stays complete', anImport({ status: 'complete', completedAt: T }), { kind: 'failed', reason: 'late', at: T + 7 }, []],
    [
      'a failed import fails again, then the first reason stays',
      anImport({ status: 'failed', failureReason: 'first', failedAt: T }),
      { kind: 'failed', reason: 'second', at: T + 7 },
      [],
    ],
    [
      'a released import gets a late release step, then it stays released',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'LINE_ITEM:done', releasedAt: T + 2 }),
      { kind: 'release-progressed', through: 'CONTACT:1', done: false, at: T + 3, owner: 'r1' },
      [],
    ],
    [
      'a second releaser claims a release whose releaser progressed within the look-back, then it is not granted',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 20 }),
      { kind: 'release-claimed', at: T + 25, staleBefore: T + 10, owner: 'r2' },
      [],
    ],
    [
      'a releaser claims a released import, then it is not granted',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'LINE_ITEM:done', releasedAt: T + 2, releaseProgressAt: T + 2 }),
      { kind: 'release-claimed', at: T + 60, staleBefore: T + 30, owner: 'r2' },
      [],
    ],
    [
      'a releaser claims an import still receiving, then it is not granted',
      receiving({ 1: 3 }),
      { kind: 'release-claimed', at: T, staleBefore: T - 30, owner: 'r2' },
      [],
    ],
    [
      'a released import’s releaser drops its claim, then it stays released',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'LINE_ITEM:done', releasedAt: T + 2, releaseProgressAt: T + 2 }),
      { kind: 'release-dropped', owner: 'r1', reason: 'late', at: T + 3 },
      [],
    ],
    [
      'a releaser taken over says it still holds the release, then the new owner keeps it',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 40, releaseOwner: 'r2' }),
      { kind: 'release-held', at: T + 41, owner: 'r1' },
      [],
    ],
    [
      'a releaser taken over releases through a page, then the resume point is the new owner’s',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 40, releaseOwner: 'r2' }),
      { kind: 'release-progressed', through: 'CONTACT:9', done: false, at: T + 41, owner: 'r1' },
      [],
    ],
    [
      'a releaser taken over finishes, then the release is not marked done for the new owner',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 40, releaseOwner: 'r2' }),
      { kind: 'release-progressed', through: 'LINE_ITEM:done', done: true, at: T + 41, owner: 'r1' },
      [],
    ],
    [
      'a releaser taken over says it still holds a release the new owner finished, then it stays released by the new owner',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'LINE_ITEM:done', releasedAt: T + 50, releaseProgressAt: T + 50, releaseOwner: 'r2' }),
      { kind: 'release-held', at: T + 51, owner: 'r1' },
      [],
    ],
    [
      'a releaser taken over releases through a page after the new owner dropped its claim, then nothing moves',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:7', releaseProgressAt: null }),
      { kind: 'release-progressed', through: 'CONTACT:4', done: false, at: T + 51, owner: 'r1' },
      [],
    ],
    [
      'a releaser whose claim was dropped says it still holds it, then the release stays free for the next claim',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: null }),
      { kind: 'release-held', at: T + 9, owner: 'r1' },
      [],
    ],
    [
      'a release claimed by a replica older than claim tokens is held by a releaser that did not claim it, then nothing moves',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 1 }),
      { kind: 'release-held', at: T + 9, owner: 'r1' },
      [],
    ],
    [
      'a releaser taken over fails and drops its claim, then the new owner keeps it',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'CONTACT:3', releaseProgressAt: T + 40, releaseOwner: 'r2' }),
      { kind: 'release-dropped', owner: 'r1', reason: 'late', at: T + 41 },
      [],
    ],
    [
      'a late holder of a released import says it still holds it, then it stays released',
      anImport({ status: 'complete', completedAt: T, releasedThrough: 'LINE_ITEM:done', releasedAt: T + 2, releaseProgressAt: T + 2 }),
      { kind: 'release-held', at: T + 9, owner: 'r1' },
      [],
    ],
  ])('when %s, and the state is unchanged', (_case, state, event, effects) => {
    const transition = importTransition(state, event);
    expect(transition).toEqual({ next: state, effects });
    expect('next' in transition && transition.next).toBe(state);
  });

  const failedImport = anImport({ status: 'failed', failureReason: 'the receiver did not answer' });
  const completeImport = anImport({ status: 'complete', completedAt: T }, { CONTACT: { ended: true }, DEAL: { ended: true } });
  const contactEnded = anImport({ status: 'receiving' }, { CONTACT: { ended: true, pageCount: 0, itemCount: 0 } });
  it.each<[string, 400 | 409, ImportState, ImportEvent, string]>([
    ['a page arrives at a failed import', 409, failedImport, page('CONTACT', 1, 1), `Import ${T} failed (the receiver did not answer); start a new one`],
    [
      'an end arrives at an import failed without a reason',
      409,
      anImport({ status: 'failed' }),
      end('CONTACT', 0, 0),
      `Import ${T} failed (no reason recorded); start a new one`,
    ],
    ['a page arrives at a complete import', 409, completeImport, page('CONTACT', 9, 1), `Import ${T} is complete; start a new one to send more`],
    ['an end arrives at a complete import', 409, completeImport, end('DEAL', 0, 0), `Import ${T} is complete; start a new one to send more`],
    ['a page is of a type the import does not import', 400, anImport(), page('PRODUCT', 1, 1), `Import ${T} does not import PRODUCT`],
    ['an end is of a type the import does not import', 400, anImport(), end('LINE_ITEM', 0, 0), `Import ${T} does not import LINE_ITEM`],
    [
      'a page arrives after its type ended',
      409,
      contactEnded,
      page('CONTACT', 1, 1),
      `CONTACT of import ${T} has already ended; pages and ends after the end are refused`,
    ],
    [
      'a second end of a type arrives with other counts',
      409,
      contactEnded,
      end('CONTACT', 1, 1),
      `CONTACT of import ${T} has already ended; pages and ends after the end are refused`,
    ],
    [
      'the end counts differ from what was received',
      400,
      receiving({ 1: 2 }),
      end('CONTACT', 2, 5),
      'Counts of CONTACT do not match: the end says 2 pages and 5 items, the service received 1 pages and 2 items; send the missing pages, then the end again',
    ],
    [
      'the end has the pages but not the items received',
      400,
      receiving({ 1: 2, 2: 2 }),
      end('CONTACT', 2, 5),
      'Counts of CONTACT do not match: the end says 2 pages and 5 items, the service received 2 pages and 4 items; send the missing pages, then the end again',
    ],
    [
      'a new page arrives at a type that holds the most pages it takes',
      400,
      receiving(fullPages),
      page('CONTACT', MAX_IMPORT_PAGES_PER_TYPE + 1, 1),
      `CONTACT of import ${T} already holds 20000 pages, the most one type takes; send up to 500 items a page, or a page again by its number to replace it`,
    ],
    [
      'an end names more pages than a type takes',
      400,
      receiving({ 1: 2 }),
      end('CONTACT', MAX_IMPORT_PAGES_PER_TYPE + 1, 2),
      `The end of CONTACT names 20001 pages; one type of an import takes at most 20000: send up to 500 items a page, in a new import`,
    ],
    [
      'a release step names an import that is not complete',
      409,
      receiving({}),
      { kind: 'release-progressed', through: 'CONTACT:1', done: false, at: T, owner: 'r1' },
      `Import ${T} is receiving; only a complete import is released`,
    ],
  ])('when %s, then it is refused with %i and what to do', (_case, status, state, event, message) => {
    expect(importTransition(state, event)).toEqual({ refused: { status, message } });
  });
});

describe('what an import received and where its release goes on', () => {
  it.each<[string, { pageCount: number; itemCount: number }, Record<string, number>]>([
    ['no pages', { pageCount: 0, itemCount: 0 }, {}],
    ['pages 1, 2 and 7', { pageCount: 3, itemCount: 1003 }, { 1: 500, 2: 500, 7: 3 }],
  ])('when a type received %s, then its counts are %j', (_case, counts, pageItems) => {
    expect(receivedCounts({ pageItems })).toEqual(counts);
  });

  it.each<[string, ReturnType<typeof releaseStart>, Partial<ImportState>]>([
    ['receiving', null, { status: 'receiving' }],
    ['complete, not yet released', { objectType: 'CONTACT', afterPage: -1 }, { status: 'complete' }],
    ['complete, released through DEAL page 40', { objectType: 'DEAL', afterPage: 40 }, { status: 'complete', releasedThrough: 'DEAL:40' }],
    ['complete and released', null, { status: 'complete', releasedThrough: 'LINE_ITEM:done', releasedAt: T }],
  ])('when an import is %s, then its release starts at %j', (_case, start, overrides) => {
    expect(releaseStart(anImport(overrides))).toEqual(start);
  });

  it.each([
    [1, true],
    [2, false],
  ])('when page %i of a type is asked for, then whether it was counted is %s', (pageNumber, counted) => {
    expect(isReceivedPage(receiving({ 1: 3 }), 'CONTACT', pageNumber)).toBe(counted);
  });
});
