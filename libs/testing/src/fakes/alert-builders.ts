import type { Tenant } from '@ecomm-sync/contracts';
import { alertNoticeId, type AlertRule, type AlertRuleFields, type NewAlertNotice } from '@ecomm-sync/data-access';
import { newAlertRuleEvaluation, type AlertCondition, type AlertCounters } from '@ecomm-sync/domain';
import { aPortalId } from './builders';

/** Builders of the alerts' records (decision 0053): full defaults, any field overridable. */

let sequence = 0;
const next = () => ++sequence;

/** "More than 0 open INVALID_EMAIL_ADDRESS errors": breached by one such error. */
export const INVALID_EMAILS_CONDITION: AlertCondition = { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 0 };

/** What the console sends for a rule (AlertRuleRepository.create and replace). */
export const anAlertRuleFields = (overrides: Partial<AlertRuleFields> = {}): AlertRuleFields => ({
  name: 'Invalid e-mails',
  storeId: null,
  enabled: true,
  condition: INVALID_EMAILS_CONDITION,
  ...overrides,
});

/** A stored rule, never evaluated and due at once. */
export const anAlertRule = (overrides: Partial<AlertRule> = {}): AlertRule => ({
  id: `rule-${next()}`,
  portalId: aPortalId(),
  appId: null,
  ...anAlertRuleFields(),
  defaultKey: null,
  ...newAlertRuleEvaluation(),
  createdAt: 1_700_000_000_000,
  ...overrides,
});

/** A firing notice of a rule to one destination, as the evaluator stores it. */
export const aNewAlertNotice = (tenant: Tenant, overrides: Partial<NewAlertNotice> = {}): NewAlertNotice => {
  const ruleId = overrides.ruleId ?? `rule-${next()}`;
  const seq = overrides.seq ?? 1;
  const destinationId = overrides.destinationId ?? `dest-${next()}`;
  const createdAt = overrides.createdAt ?? 1_700_000_000_000;
  return {
    portalId: tenant.portalId,
    appId: tenant.appId,
    ruleId,
    ruleName: 'Invalid e-mails',
    destinationId,
    kind: 'firing',
    seq,
    value: 3,
    summary: '3 open INVALID_EMAIL_ADDRESS errors (threshold 0)',
    body: {
      noticeId: alertNoticeId(ruleId, seq, destinationId),
      state: 'firing',
      rule: { id: ruleId, name: 'Invalid e-mails', kind: 'open-errors' },
      portalId: tenant.portalId,
      appId: tenant.appId,
      storeId: null,
      value: 3,
      summary: '3 open INVALID_EMAIL_ADDRESS errors (threshold 0)',
      at: createdAt,
      link: `/console/portals/${tenant.portalId}/errors?errorType=INVALID_EMAIL_ADDRESS`,
    },
    createdAt,
    ...overrides,
  };
};

/** What the evaluator reads for a tenant: nothing wrong anywhere. */
export const anAlertCounters = (overrides: Partial<AlertCounters> = {}): AlertCounters => ({
  now: 1_700_000_000_000,
  openErrors: {},
  processedLastHour: 0,
  erringLastHour: { any: 0, byType: {} },
  oldestUnappliedAt: null,
  crmRefusals: 0,
  crmWait: null,
  failedImports: 0,
  failedWebhooks: 0,
  ...overrides,
});
