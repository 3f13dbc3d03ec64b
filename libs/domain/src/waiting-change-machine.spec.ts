import type { Revision } from './revision-order';
import { isWaitingLive, waitingTransition, type WaitingChangeEvent, type WaitingChangeState } from './waiting-change-machine';

const T = 1_700_000_000_000;
const WINDOW = 24 * 60 * 60 * 1000;
const r = (rev: number, settingsRev = 1): Revision => ({ rev, settingsRev });

const entry = (overrides: Partial<WaitingChangeState> = {}): WaitingChangeState => ({
  revision: r(2),
  waitingFor: ['DEAL:d1'],
  since: T,
  until: T + WINDOW,
  triedAt: T,
  reapply: false,
  ...overrides,
});
const leftWaiting = (revision: Revision, { reapply = false, now = T + 10, waitingFor = ['DEAL:d1', 'PRODUCT:p1'] } = {}): WaitingChangeEvent => ({
  kind: 'left-waiting',
  revision,
  waitingFor,
  reapply,
  now,
  windowMs: WINDOW,
});

describe('waitingTransition', () => {
  it.each<[string, WaitingChangeState | null, WaitingChangeEvent, WaitingChangeState | null]>([
    [
      'a change is left waiting for the first time',
      null,
      leftWaiting(r(2)),
      entry({ waitingFor: ['DEAL:d1', 'PRODUCT:p1'], since: T + 10, until: T + 10 + WINDOW, triedAt: T + 10 }),
    ],
    ['a newer revision is left waiting', entry(), leftWaiting(r(3)), entry({ revision: r(3), waitingFor: ['DEAL:d1', 'PRODUCT:p1'], triedAt: T + 10 })],
    [
      'the same revision is left waiting as a re-apply',
      entry(),
      leftWaiting(r(2), { reapply: true }),
      entry({ waitingFor: ['DEAL:d1', 'PRODUCT:p1'], triedAt: T + 10, reapply: true }),
    ],
    ['an older revision is left waiting behind a newer entry', entry({ revision: r(3) }), leftWaiting(r(2)), entry({ revision: r(3) })],
    ['the object is processed at the waiting revision', entry(), { kind: 'processed', revision: r(2) }, null],
    ['the object is processed at a newer revision', entry(), { kind: 'processed', revision: r(3) }, null],
    [
      'the object is processed at an older revision than the entry',
      entry({ revision: r(3) }),
      { kind: 'processed', revision: r(2) },
      entry({ revision: r(3) }),
    ],
    ['the object is processed with none waiting', null, { kind: 'processed', revision: r(2) }, null],
    ['the periodic retry finds its objects still missing', entry(), { kind: 'still-missing', now: T + 60_000 }, entry({ triedAt: T + 60_000 })],
    ['the clock reaches the end of the window', entry(), { kind: 'clock', now: T + WINDOW }, null],
    ['the clock is within the window', entry(), { kind: 'clock', now: T + WINDOW - 1 }, entry()],
  ])('when %s then the entry is as the table says', (_case, state, event, expected) => {
    expect(waitingTransition(state, event)).toEqual(expected);
  });

  it('when a change waits again then its window still ends 24 hours after its first wait', () => {
    const first = waitingTransition(null, leftWaiting(r(2), { now: T }));
    const again = waitingTransition(first, leftWaiting(r(3), { now: T + WINDOW - 5 }));
    expect(again).toMatchObject({ since: T, until: T + WINDOW, revision: r(3) });
    expect(waitingTransition(again, { kind: 'clock', now: T + WINDOW })).toBeNull();
  });

  it('when an event changes nothing then next is the entry itself (nothing to write)', () => {
    const state = entry({ revision: r(3) });
    expect(waitingTransition(state, leftWaiting(r(2)))).toBe(state);
    expect(waitingTransition(state, { kind: 'processed', revision: r(2) })).toBe(state);
    expect(waitingTransition(state, { kind: 'clock', now: T })).toBe(state);
  });
});

describe('isWaitingLive', () => {
  it.each([
    ['before the end of its window', true, T + WINDOW - 1],
    ['at the end of its window', false, T + WINDOW],
  ])('when %s then live is %s', (_case, live, now) => {
    expect(isWaitingLive(entry(), now)).toBe(live);
  });
});
