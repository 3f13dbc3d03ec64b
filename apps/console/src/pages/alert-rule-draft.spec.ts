import { alertRuleInputSchema, STORE_SCOPED_ALERT_KINDS, type ConsoleAlertRule } from '@ecomm-sync/contracts';
import { describeCondition, draftOf, firingFirst, hasStore, inputOf, NEW_RULE, statusOf, type AlertCondition } from './alert-rule-draft';

const aRule = (overrides: Partial<ConsoleAlertRule> = {}): ConsoleAlertRule => ({
  id: 'r1',
  portalId: 7,
  appId: null,
  storeId: null,
  name: 'A rule',
  enabled: true,
  isDefault: false,
  condition: { kind: 'import-failed' },
  state: { status: 'ok', since: 1_000, value: 0, summary: '0 imports failed in the last hour' },
  lastEvaluatedAt: 2_000,
  ...overrides,
});

describe('alert rule drafts', () => {
  const kinds = alertRuleInputSchema.properties.condition.oneOf.map((branch) => branch.properties.kind.const);
  it.each(kinds.map((kind) => [kind, STORE_SCOPED_ALERT_KINDS.includes(kind)] as const))(
    'when a rule of kind %s is drafted, then the form offers a store exactly where the API takes one (%s; libs/contracts, read by alertRuleProblem)',
    (kind, scoped) => {
      expect(hasStore(kind)).toBe(scoped);
    },
  );

  it.each<[string, AlertCondition, string | null]>([
    ['open errors of one type, counted, in one store', { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 5 }, 's1'],
    ['open errors of any type, as a share', { kind: 'open-errors', errorType: null, measure: 'share', threshold: 2.5 }, null],
    ['sync lag', { kind: 'sync-lag', minutes: 45 }, null],
    ['sync lag in one store', { kind: 'sync-lag', minutes: 45 }, 's1'],
    ['a failing CRM connection', { kind: 'crm-connection', unreachableMinutes: 15 }, null],
    ['a failed import', { kind: 'import-failed' }, null],
    ["a failed import's webhook", { kind: 'webhook-failed' }, null],
  ])('when a rule of %s is edited unchanged, then the form sends it back as it was', (_case, condition, storeId) => {
    const rule = aRule({ condition, storeId, enabled: false });
    expect(inputOf(draftOf(rule))).toEqual({ name: 'A rule', enabled: false, storeId, condition });
  });

  it('when a store is picked for a rule of open errors or sync lag, then it is sent, and for another kind of rule it is not', () => {
    expect(inputOf({ ...NEW_RULE, name: ' Lag ', kind: 'sync-lag', storeId: 's1', minutes: '20' })).toEqual({
      name: 'Lag',
      enabled: true,
      storeId: 's1',
      condition: { kind: 'sync-lag', minutes: 20 },
    });
    expect(inputOf({ ...NEW_RULE, name: 'CRM', kind: 'crm-connection', storeId: 's1', unreachableMinutes: '15' })).toMatchObject({ storeId: null });
  });

  it.each<[string, AlertCondition, string | null, string]>([
    [
      'counted errors of one type',
      { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 5 },
      null,
      'More than 5 open INVALID_EMAIL_ADDRESS errors',
    ],
    [
      'counted errors of any type in one store',
      { kind: 'open-errors', errorType: null, measure: 'count', threshold: 0 },
      's1',
      'More than 0 open errors of any type in store s1',
    ],
    [
      'a share of errors',
      { kind: 'open-errors', errorType: null, measure: 'share', threshold: 3 },
      null,
      'More than 3% of the objects processed in the last hour with an open error of any type',
    ],
    ['one minute of lag', { kind: 'sync-lag', minutes: 1 }, null, 'The oldest change not applied yet waits more than 1 minute'],
    ['lag in one store', { kind: 'sync-lag', minutes: 30 }, 's1', 'The oldest change not applied yet in store s1 waits more than 30 minutes'],
    [
      'a failing CRM connection',
      { kind: 'crm-connection', unreachableMinutes: 15 },
      null,
      'The CRM refuses the token, its daily cap is reached, or it does not answer for 15 minutes',
    ],
  ])('when a rule of %s is described, then it reads as a sentence', (_case, condition, storeId, sentence) => {
    expect(describeCondition(condition, storeId)).toBe(sentence);
  });

  it('when rules are listed for the overview, then firing ones come first (longest firing first), then ok, not evaluated and disabled ones', () => {
    const rules = [
      aRule({ name: 'Off', enabled: false, state: { status: 'firing', since: 1, value: 3, summary: '' } }),
      aRule({ name: 'New', lastEvaluatedAt: null }),
      aRule({ name: 'Ok b' }),
      aRule({ name: 'Firing later', state: { status: 'firing', since: 500, value: 2, summary: '' } }),
      aRule({ name: 'Ok a', state: { status: 'resolved', since: 900, value: 0, summary: '' } }),
      aRule({ name: 'Firing first', state: { status: 'firing', since: 100, value: 9, summary: '' } }),
    ];
    expect(firingFirst(rules).map((rule) => [rule.name, statusOf(rule)])).toEqual([
      ['Firing first', 'firing'],
      ['Firing later', 'firing'],
      ['Ok a', 'ok'],
      ['Ok b', 'ok'],
      ['New', 'new'],
      ['Off', 'off'],
    ]);
  });
});
