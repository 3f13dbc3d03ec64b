import { describeCrmWait, isWaiting, nextCrmWait, type CrmWait } from './crm-wait';

const NOW = 1_700_000_000_000;
const policy = { firstBackoffMs: 1_000, maxBackoffMs: 60_000, rateLimitedMs: 10_000, dailyCapMs: 900_000 };
const wait = (overrides: Partial<CrmWait> = {}): CrmWait => ({
  reason: 'unreachable',
  since: NOW - 5_000,
  until: NOW,
  tries: 3,
  lastAnswer: 'no answer',
  ...overrides,
});

describe('waiting for a CRM', () => {
  it.each([
    ['a first failure to answer', null, { reason: 'unreachable', until: null }, { since: NOW, until: NOW + 1_000, tries: 1 }],
    ['a fourth failure to answer in a row', wait(), { reason: 'unreachable', until: null }, { since: NOW - 5_000, until: NOW + 8_000, tries: 4 }],
    [
      'a failure while the wait is in force (a request sent before it began)',
      wait({ until: NOW + 2_000 }),
      { reason: 'unreachable', until: null },
      { since: NOW - 5_000, until: NOW + 4_000, tries: 3 },
    ],
    ['the fortieth failure to answer', wait({ tries: 39 }), { reason: 'unreachable', until: null }, { since: NOW - 5_000, until: NOW + 60_000, tries: 40 }],
    ['a rate limit with a Retry-After', null, { reason: 'rate-limited', until: NOW + 3_000 }, { since: NOW, until: NOW + 3_000, tries: 1 }],
    ['a rate limit naming no time', null, { reason: 'rate-limited', until: null }, { since: NOW, until: NOW + 10_000, tries: 1 }],
    ['a rate limit naming a time already past', null, { reason: 'rate-limited', until: NOW - 1 }, { since: NOW, until: NOW + 10_000, tries: 1 }],
    ['the daily cap with its reset', wait(), { reason: 'daily-cap', until: NOW + 3_600_000 }, { since: NOW - 5_000, until: NOW + 3_600_000, tries: 4 }],
    ['the daily cap naming no reset', null, { reason: 'daily-cap', until: null }, { since: NOW, until: NOW + 900_000, tries: 1 }],
    ['a first refusal of the credentials', null, { reason: 'unauthorized', until: null }, { since: NOW, until: NOW + 1_000, tries: 1 }],
    [
      'a fourth refusal of the credentials in a row',
      wait({ reason: 'unauthorized' }),
      { reason: 'unauthorized', until: null },
      { since: NOW - 5_000, until: NOW + 8_000, tries: 4 },
    ],
    [
      'the fortieth refusal of the credentials',
      wait({ tries: 39 }),
      { reason: 'unauthorized', until: null },
      { since: NOW - 5_000, until: NOW + 60_000, tries: 40 },
    ],
  ] as const)('when the CRM fails with %s, then the portal waits as long as it should', (_case, previous, cause, expected) => {
    expect(nextCrmWait(previous, { ...cause, lastAnswer: '429 slow down' }, NOW, policy)).toEqual({
      reason: cause.reason,
      lastAnswer: '429 slow down',
      ...expected,
    });
  });

  it('when a retry at the end of a wait fails while the wait is held for it, then it counts as one more try', () => {
    const held = wait({ until: NOW + 60_000 }); // a resume holds the wait by moving its end
    expect(nextCrmWait(held, { reason: 'unreachable', until: null, lastAnswer: 'no answer' }, NOW, policy, { retry: true })).toMatchObject({
      tries: 4,
      until: NOW + 8_000,
    });
  });

  it.each([
    ['no wait', null, false],
    ['a wait that ends later', wait({ until: NOW + 1 }), true],
    ['a wait that ends now', wait({ until: NOW }), false],
  ] as const)('when a portal has %s, then whether its work waits follows', (_case, current, expected) => {
    expect(isWaiting(current, NOW)).toBe(expected);
  });

  it.each([
    ['rate-limited', 'rate limited until 2023-11-14T22:13:30.000Z; last answer: 429 slow down'],
    ['daily-cap', 'daily request cap reached; paused until 2023-11-14T22:13:30.000Z; last answer: 429 slow down'],
    ['unreachable', 'CRM unreachable since 2023-11-14T22:13:15.000Z; next try at 2023-11-14T22:13:30.000Z; last answer: 429 slow down'],
    [
      'unauthorized',
      "the CRM refuses the connection's credentials (a revoked or rotated token, or a missing scope) since 2023-11-14T22:13:15.000Z: the portal's CRM connection must be entered again by the service's operator (PUT /admin/v1/portals/{portalId}/crm-connection), or the scope granted in the CRM; the changes wait, next try at 2023-11-14T22:13:30.000Z; last answer: 429 slow down",
    ],
  ] as const)('when a portal waits because it is %s, then people read why and until when', (reason, text) => {
    expect(describeCrmWait(wait({ reason, since: NOW - 5_000, until: NOW + 10_000, lastAnswer: '429 slow down' }))).toBe(text);
  });

  it("when the portal's id is known, then the refused credentials' message names its connection's address", () => {
    expect(describeCrmWait(wait({ reason: 'unauthorized' }), 101)).toContain('(PUT /admin/v1/portals/101/crm-connection)');
  });
});
