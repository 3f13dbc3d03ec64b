import {
  alertConsolePath,
  type AlertRuleScope,
  alertSlot,
  alertTransition,
  INITIAL_ALERT_STATE,
  measureAlert,
  type AlertCondition,
  type AlertCounters,
  type AlertEvent,
  type AlertMeasure,
  type AlertState,
  type AlertTransition,
} from './alert-machine';

const T = 1_700_000_000_000;
const MINUTE = 60_000;
const counters = (over: Partial<AlertCounters> = {}): AlertCounters => ({
  now: T,
  openErrors: {},
  processedLastHour: 0,
  erringLastHour: { any: 0, byType: {} },
  oldestUnappliedAt: null,
  crmRefusals: 0,
  crmWait: null,
  failedImports: 0,
  failedWebhooks: 0,
  ...over,
});

describe('measureAlert', () => {
  const emails: AlertCondition = { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 2 };
  const anyShare: AlertCondition = { kind: 'open-errors', errorType: null, measure: 'share', threshold: 10 };
  const lag: AlertCondition = { kind: 'sync-lag', minutes: 5 };
  const crm: AlertCondition = { kind: 'crm-connection', unreachableMinutes: 15 };
  it.each<[string, AlertCondition, AlertCounters, boolean, number]>([
    ['open errors of the type at the threshold', emails, counters({ openErrors: { INVALID_EMAIL_ADDRESS: 2 } }), false, 2],
    ['open errors of the type above the threshold', emails, counters({ openErrors: { INVALID_EMAIL_ADDRESS: 3 } }), true, 3],
    ['open errors of another type only', emails, counters({ openErrors: { INVALID_DEAL_STAGE: 9 } }), false, 0],
    [
      'any type, share above the threshold',
      anyShare,
      counters({ openErrors: { A: 2, B: 1 }, processedLastHour: 20, erringLastHour: { any: 3, byType: { A: 2, B: 1 } } }),
      true,
      3,
    ],
    [
      'any type, share at the threshold',
      anyShare,
      counters({ openErrors: { A: 2 }, processedLastHour: 20, erringLastHour: { any: 2, byType: { A: 2 } } }),
      false,
      2,
    ],
    ['a share with nothing processed in the last hour', anyShare, counters({ openErrors: { A: 5 } }), false, 0],
    [
      'a share whose erring object was processed between the two reads (never above 100 %)',
      anyShare,
      counters({ openErrors: { A: 2 }, processedLastHour: 1, erringLastHour: { any: 2, byType: { A: 2 } } }),
      true,
      1,
    ],
    [
      'a share: many old open errors, few objects erring in the last hour',
      anyShare,
      counters({ openErrors: { A: 50 }, processedLastHour: 5, erringLastHour: { any: 0, byType: {} } }),
      false,
      0,
    ],
    [
      'a share of one type: objects of that type alone',
      { ...anyShare, errorType: 'A' },
      counters({ openErrors: { A: 1, B: 9 }, processedLastHour: 10, erringLastHour: { any: 9, byType: { A: 1, B: 9 } } }),
      false,
      1,
    ],
    ['a lag longer than the rule allows', lag, counters({ oldestUnappliedAt: T - 6 * MINUTE }), true, 6],
    ['a lag as long as the rule allows', lag, counters({ oldestUnappliedAt: T - 5 * MINUTE }), false, 5],
    ['nothing waiting to be applied', lag, counters(), false, 0],
    ['an object accepted less than a minute ago', { kind: 'sync-lag', minutes: 0 }, counters({ oldestUnappliedAt: T - 59_000 }), false, 0],
    ['an object accepted a minute ago, any lag allowed but none', { kind: 'sync-lag', minutes: 0 }, counters({ oldestUnappliedAt: T - MINUTE }), true, 1],
    ['an object accepted after the evaluation began (clocks apart)', lag, counters({ oldestUnappliedAt: T + MINUTE }), false, 0],
    ['the CRM refusing the token', crm, counters({ crmRefusals: 4 }), true, 4],
    ['the CRM refusing the token while the changes wait', crm, counters({ crmWait: { reason: 'unauthorized', since: T } }), true, 1],
    ['the daily cap reached', crm, counters({ crmWait: { reason: 'daily-cap', since: T } }), true, 1],
    ['the CRM unreachable for longer than allowed', crm, counters({ crmWait: { reason: 'unreachable', since: T - 20 * MINUTE } }), true, 20],
    ['the CRM unreachable for a moment', crm, counters({ crmWait: { reason: 'unreachable', since: T - MINUTE } }), false, 0],
    ['the CRM rate-limiting (waiting is not failing)', crm, counters({ crmWait: { reason: 'rate-limited', since: T - 60 * MINUTE } }), false, 0],
    ['an import failed', { kind: 'import-failed' }, counters({ failedImports: 1 }), true, 1],
    ['no import failed', { kind: 'import-failed' }, counters(), false, 0],
    ['an import webhook failed for good', { kind: 'webhook-failed' }, counters({ failedImports: 2, failedWebhooks: 1 }), true, 1],
    ['an import failed for another reason than its webhook', { kind: 'webhook-failed' }, counters({ failedImports: 1 }), false, 0],
  ])('when %s then the measure is as the table says', (_case, condition, read, breached, value) => {
    const measure = measureAlert(condition, read);
    expect({ breached: measure.breached, value: measure.value }).toEqual({ breached, value });
    expect(measure.summary).toEqual(expect.any(String));
  });
});

describe('alertTransition', () => {
  const breached: AlertMeasure = { breached: true, value: 3, summary: '3 open errors' };
  const clear: AlertMeasure = { breached: false, value: 0, summary: 'no open error' };
  const evaluated = (measure: AlertMeasure, now = T): AlertEvent => ({ kind: 'evaluated', measure, now });
  const firing: AlertState = { status: 'firing', seq: 1, since: T - MINUTE, value: 3, summary: '3 open errors' };
  const resolved: AlertState = { status: 'resolved', seq: 2, since: T - MINUTE, value: 0, summary: 'no open error' };
  const ok: AlertState = { status: 'ok', seq: 0, since: T - MINUTE, value: 0, summary: 'no open error' };
  it.each<[string, AlertState, AlertEvent, AlertTransition]>([
    [
      'a new rule breached',
      INITIAL_ALERT_STATE,
      evaluated(breached),
      {
        next: { status: 'firing', seq: 1, since: T, value: 3, summary: '3 open errors' },
        notice: { kind: 'firing', seq: 1, value: 3, summary: '3 open errors' },
      },
    ],
    ['a new rule clear', INITIAL_ALERT_STATE, evaluated(clear), { next: { ...INITIAL_ALERT_STATE, since: T, summary: 'no open error' }, notice: null }],
    ['a firing rule still breached with the same figure', firing, evaluated(breached), { next: firing, notice: null }],
    [
      'a firing rule still breached with a new figure',
      firing,
      evaluated({ ...breached, value: 7, summary: '7 open errors' }),
      { next: { ...firing, value: 7, summary: '7 open errors' }, notice: null },
    ],
    [
      'a firing rule clear',
      firing,
      evaluated(clear),
      {
        next: { status: 'resolved', seq: 2, since: T, value: 0, summary: 'no open error' },
        notice: { kind: 'resolved', seq: 2, value: 0, summary: 'no open error' },
      },
    ],
    ['a resolved rule still clear', resolved, evaluated(clear), { next: resolved, notice: null }],
    [
      'a resolved rule breached again',
      resolved,
      evaluated(breached),
      {
        next: { status: 'firing', seq: 3, since: T, value: 3, summary: '3 open errors' },
        notice: { kind: 'firing', seq: 3, value: 3, summary: '3 open errors' },
      },
    ],
    ['an ok rule still clear', ok, evaluated(clear), { next: ok, notice: null }],
    [
      'a firing rule reset (disabled or changed): its seq is kept',
      firing,
      { kind: 'reset' },
      { next: { ...INITIAL_ALERT_STATE, seq: firing.seq }, notice: null },
    ],
    ['a resolved rule reset: its seq is kept', resolved, { kind: 'reset' }, { next: { ...INITIAL_ALERT_STATE, seq: resolved.seq }, notice: null }],
    ['a rule never evaluated reset', INITIAL_ALERT_STATE, { kind: 'reset' }, { next: INITIAL_ALERT_STATE, notice: null }],
  ])('when %s then the transition is as the table says', (_case, state, event, expected) => {
    expect(alertTransition(state, event)).toEqual(expected);
  });

  it('when a rule stays firing over many evaluations then it sends one notice only (no storm)', () => {
    let state = INITIAL_ALERT_STATE;
    const notices: string[] = [];
    for (const measure of [breached, breached, { ...breached, value: 4 }, breached, clear, clear, breached]) {
      const { next, notice } = alertTransition(state, evaluated(measure));
      if (notice) notices.push(`${notice.kind}#${notice.seq}`);
      state = next;
    }
    expect(notices).toEqual(['firing#1', 'resolved#2', 'firing#3']);
  });

  it('when an evaluation changes nothing then next is the state itself (nothing to write)', () => {
    expect(alertTransition(firing, evaluated(breached)).next).toBe(firing);
    expect(alertTransition(resolved, evaluated(clear)).next).toBe(resolved);
  });
});

describe('alertSlot and alertConsolePath', () => {
  it('when two times fall in the same interval then they share a slot, and the next interval has the next slot', () => {
    expect(alertSlot(T, MINUTE)).toBe(alertSlot(T + 59_999 - (T % MINUTE), MINUTE));
    expect(alertSlot(T - (T % MINUTE) + MINUTE, MINUTE)).toBe(alertSlot(T, MINUTE) + 1);
  });

  const direct: AlertRuleScope = { portalId: 7, appId: null, storeId: null };
  const app: AlertRuleScope = { portalId: 7, appId: 'app-1', storeId: null };
  const invalidEmails: AlertCondition = { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 1 };
  it.each<[string, AlertRuleScope, AlertCondition, string]>([
    ["a portal's own error rule", direct, invalidEmails, '/console/portals/7/errors?errorType=INVALID_EMAIL_ADDRESS'],
    ["a portal's own error rule of any type", direct, { ...invalidEmails, errorType: null }, '/console/portals/7/errors'],
    [
      "a portal's own error rule of one store",
      { ...direct, storeId: 'eu' },
      invalidEmails,
      '/console/portals/7/errors?errorType=INVALID_EMAIL_ADDRESS&owner=direct&storeId=eu',
    ],
    ["a portal's own lag rule", direct, { kind: 'sync-lag', minutes: 5 }, '/console/portals/7/overview'],
    ["a portal's own CRM rule", direct, { kind: 'crm-connection', unreachableMinutes: 5 }, '/console/portals/7/alerts'],
    ["a portal's own import rule", direct, { kind: 'import-failed' }, '/console/portals/7/stores'],
    [
      "an application's error rule of one store",
      { ...app, storeId: 'eu' },
      invalidEmails,
      '/console/apps/app-1/errors?portalId=7&errorType=INVALID_EMAIL_ADDRESS&owner=app-1&storeId=eu',
    ],
    ["an application's lag rule", app, { kind: 'sync-lag', minutes: 5 }, '/console/apps/app-1/overview'],
    ["an application's CRM rule", app, { kind: 'crm-connection', unreachableMinutes: 5 }, '/console/apps/app-1/alerts?portalId=7'],
    ["an application's webhook rule", app, { kind: 'webhook-failed' }, '/console/apps/app-1/alerts?portalId=7'],
  ])('when a notice links to %s then it opens %s', (_case, rule, condition, path) => {
    expect(alertConsolePath(rule, condition)).toBe(path);
  });
});
