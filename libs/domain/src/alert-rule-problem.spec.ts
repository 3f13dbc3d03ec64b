import { alertRuleProblem } from './alert-rule-problem';
import type { AlertCondition } from './alert-machine';

const share = (threshold: number): AlertCondition => ({ kind: 'open-errors', errorType: null, measure: 'share', threshold });

describe('what an alert rule as sent could never mean', () => {
  it.each<[string, string | null, AlertCondition, RegExp | null]>([
    ['a share below 100 %', null, share(99.5), null],
    ['a share of 100 %', null, share(100), /^condition\.threshold of a share rule is a percentage below 100 \(got 100\)/],
    ['a share of 500 %', null, share(500), /below 100 \(got 500\)/],
    ['a count of 500', null, { kind: 'open-errors', errorType: null, measure: 'count', threshold: 500 }, null],
    ['open errors of one store', 'web', share(5), null],
    ['lag of one store', 'web', { kind: 'sync-lag', minutes: 30 }, null],
    [
      'a CRM connection of one store',
      'web',
      { kind: 'crm-connection', unreachableMinutes: 15 },
      /^storeId applies to open-errors and sync-lag rules only; a rule of kind crm-connection watches/,
    ],
    ['a failed import of one store', 'web', { kind: 'import-failed' }, /a rule of kind import-failed watches the whole tenant: leave storeId out$/],
    ['a failed webhook of every store', null, { kind: 'webhook-failed' }, null],
  ])('when a rule is %s, then the table says what to fix', (_case, storeId, condition, problem) => {
    const found = alertRuleProblem({ storeId, condition });
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});
