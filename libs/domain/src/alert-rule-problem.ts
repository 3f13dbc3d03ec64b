import { STORE_SCOPED_ALERT_KINDS } from '@ecomm-sync/contracts';
import type { AlertCondition } from './alert-machine';

/** The kinds of rule whose figure the evaluator reads per store (libs/contracts, where the console's spec reads them too). */
export { STORE_SCOPED_ALERT_KINDS };

/**
 * Why a rule as sent could never mean what it says, or null: a share rule fires when more than
 * `threshold` % of the objects processed in the last hour have an open error, which 100 % or more
 * never is; a store narrows only the kinds the evaluator reads per store (a CRM connection, a
 * failed import or its webhook are the tenant's). Said to the sender with what to send instead.
 */
export function alertRuleProblem(rule: { storeId?: string | null; condition: AlertCondition }): string | null {
  const { condition } = rule;
  if (condition.kind === 'open-errors' && condition.measure === 'share' && condition.threshold >= 100) {
    return `condition.threshold of a share rule is a percentage below 100 (got ${condition.threshold}): the rule fires when more than that share of the objects processed in the last hour have an open error`;
  }
  if (rule.storeId != null && !STORE_SCOPED_ALERT_KINDS.includes(condition.kind)) {
    return `storeId applies to ${STORE_SCOPED_ALERT_KINDS.join(' and ')} rules only; a rule of kind ${condition.kind} watches the whole tenant: leave storeId out`;
  }
  return null;
}
