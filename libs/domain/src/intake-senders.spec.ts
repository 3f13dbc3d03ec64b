import { anotherPortalSending, INTAKE_SENDING_WINDOW_MS, sendingDueAfter } from './intake-senders';

const NOW = 100_000;

describe('anotherPortalSending', () => {
  it.each<[string, number[], [number, number][], boolean, number?]>([
    ['nobody was read or asked here', [], [], false],
    ['only the asking portal was read', [7], [], false],
    ['only the asking portal asked here', [], [[7, NOW - 10]], false],
    ['another portal was read', [8], [], true],
    ['the asking portal and another were read', [7, 8], [], true],
    ['another portal asked here within the window', [], [[8, NOW - 4_000]], true],
    ['another portal asked here exactly a window ago', [], [[8, NOW - INTAKE_SENDING_WINDOW_MS]], true],
    ['another portal asked here just over a window ago', [], [[8, NOW - INTAKE_SENDING_WINDOW_MS - 1]], false],
    [
      'one went quiet and another still asks',
      [],
      [
        [8, NOW - 9_000],
        [9, NOW - 1_000],
        [7, NOW],
      ],
      true,
    ],
    [
      'the others went quiet and the asking portal asks now',
      [7],
      [
        [8, NOW - 9_000],
        [7, NOW],
      ],
      false,
    ],
    ['another portal was read by a read that answered exactly a window ago', [8], [], true, NOW - INTAKE_SENDING_WINDOW_MS],
    ['another portal was read by a read that answered just over a window ago', [8], [], false, NOW - INTAKE_SENDING_WINDOW_MS - 1],
    ['the read is stale but another portal asked here within the window', [8], [[8, NOW - 1_000]], true, 0],
  ])('when %s, then another portal sending is %p', (_, read, asked, expected, readAt = NOW) => {
    expect(anotherPortalSending(7, { read, readAt, askedHere: new Map(asked) }, NOW)).toBe(expected);
  });

  it('when the window is narrower, then an ask counts only within it', () => {
    const askedHere = new Map([[8, NOW - 1_500]]);
    expect(anotherPortalSending(7, { read: [], readAt: NOW, askedHere }, NOW, 1_000)).toBe(false);
    expect(anotherPortalSending(7, { read: [], readAt: NOW, askedHere }, NOW, 2_000)).toBe(true);
  });
});

describe('sendingDueAfter', () => {
  it.each<[string, number | undefined, number]>([
    ['the default window', undefined, NOW - INTAKE_SENDING_WINDOW_MS],
    ['a window of a second', 1_000, NOW - 1_000],
  ])('when reading with %s, then a portal counts as sending with a due after the window before now', (_, windowMs, expected) => {
    expect(sendingDueAfter(NOW, windowMs)).toBe(expected);
  });
});
