import type { AlertRuleInput, ConsoleAlertRule, ErrorType } from '@ecomm-sync/contracts';

/** The alert rules' conditions, pure: a rule as the form edits it, as the API takes it, and as the page says it. */
export type AlertCondition = AlertRuleInput['condition'];
export type RuleKind = AlertCondition['kind'];

export const RULE_KINDS: readonly (readonly [RuleKind, string])[] = [
  ['open-errors', 'Open errors above a threshold'],
  ['sync-lag', 'Sync lag above some minutes'],
  ['crm-connection', 'CRM connection failing'],
  ['import-failed', 'An import failed'],
  ['webhook-failed', "An import's webhook failed for good"],
];

export const MEASURES = [
  ['count', 'A number of open errors'],
  ['share', 'A share (%) of objects processed'],
] as const;

/** The form's fields, as typed (numbers as text); `errorType` and `storeId` empty: any. */
export interface RuleDraft {
  name: string;
  enabled: boolean;
  kind: RuleKind;
  errorType: string;
  measure: 'count' | 'share';
  threshold: string;
  storeId: string;
  minutes: string;
  unreachableMinutes: string;
}

export const NEW_RULE: RuleDraft = {
  name: '',
  enabled: true,
  kind: 'open-errors',
  errorType: '',
  measure: 'count',
  threshold: '10',
  storeId: '',
  minutes: '30',
  unreachableMinutes: '15',
};

/** A stored rule in the form: its own figures, the new-rule defaults for the fields of other kinds. */
export function draftOf(rule: ConsoleAlertRule): RuleDraft {
  const draft: RuleDraft = { ...NEW_RULE, name: rule.name, enabled: rule.enabled, kind: rule.condition.kind, storeId: rule.storeId ?? '' };
  const condition = rule.condition;
  if (condition.kind === 'open-errors')
    return { ...draft, errorType: condition.errorType ?? '', measure: condition.measure, threshold: String(condition.threshold) };
  if (condition.kind === 'sync-lag') return { ...draft, minutes: String(condition.minutes) };
  if (condition.kind === 'crm-connection') return { ...draft, unreachableMinutes: String(condition.unreachableMinutes) };
  return draft;
}

function conditionOf(draft: RuleDraft): AlertCondition {
  switch (draft.kind) {
    case 'open-errors':
      return {
        kind: 'open-errors',
        errorType: draft.errorType ? (draft.errorType as ErrorType) : null,
        measure: draft.measure,
        threshold: Number(draft.threshold),
      };
    case 'sync-lag':
      return { kind: 'sync-lag', minutes: Number(draft.minutes) };
    case 'crm-connection':
      return { kind: 'crm-connection', unreachableMinutes: Number(draft.unreachableMinutes) };
    default:
      return { kind: draft.kind };
  }
}

/** The kinds of rule that may watch one store (the evaluator reads their figures by store): libs/contracts' STORE_SCOPED_ALERT_KINDS, which the spec holds it to (kept here so the bundle does not carry the library). */
export const hasStore = (kind: AlertCondition['kind']): boolean => kind === 'open-errors' || kind === 'sync-lag';

/** The body of POST or PUT …/alerts/rules; a store applies to open-errors and sync-lag rules only. */
export const inputOf = (draft: RuleDraft): AlertRuleInput => ({
  name: draft.name.trim(),
  enabled: draft.enabled,
  storeId: hasStore(draft.kind) && draft.storeId ? draft.storeId : null,
  condition: conditionOf(draft),
});

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

/** When a rule fires, in a sentence. */
export function describeCondition(condition: AlertCondition, storeId: string | null = null): string {
  switch (condition.kind) {
    case 'open-errors': {
      const what = `open ${condition.errorType ?? 'errors of any type'}${condition.errorType ? ' errors' : ''}${storeId ? ` in store ${storeId}` : ''}`;
      return condition.measure === 'count'
        ? `More than ${condition.threshold} ${what}`
        : `More than ${condition.threshold}% of the objects processed in the last hour with ${condition.errorType ? `an open ${condition.errorType} error` : 'an open error of any type'}${storeId ? ` in store ${storeId}` : ''}`;
    }
    case 'sync-lag':
      return `The oldest change not applied yet${storeId ? ` in store ${storeId}` : ''} waits more than ${minutes(condition.minutes)}`;
    case 'crm-connection':
      return `The CRM refuses the token, its daily cap is reached, or it does not answer for ${minutes(condition.unreachableMinutes)}`;
    case 'import-failed':
      return 'An import failed in the last hour';
    case 'webhook-failed':
      return "An import's webhook failed for good in the last hour";
  }
}

export type RuleStatus = 'firing' | 'ok' | 'off' | 'new';

/** What a rule's state is now: off when disabled, new until its first evaluation. */
export function statusOf(rule: ConsoleAlertRule): RuleStatus {
  if (!rule.enabled) return 'off';
  if (rule.state.status === 'firing') return 'firing';
  return rule.lastEvaluatedAt === null ? 'new' : 'ok';
}

export const STATUS_LABELS: Record<RuleStatus, string> = { firing: 'Firing', ok: 'OK', off: 'Disabled', new: 'Not evaluated yet' };

const ORDER: Record<RuleStatus, number> = { firing: 0, ok: 1, new: 2, off: 3 };

/** Firing rules first, the longest firing first; then the others by name. */
export const firingFirst = (rules: readonly ConsoleAlertRule[]): ConsoleAlertRule[] =>
  [...rules].sort((a, b) => {
    const [status, other] = [statusOf(a), statusOf(b)];
    if (status !== other) return ORDER[status] - ORDER[other];
    return (status === 'firing' ? (a.state.since ?? 0) - (b.state.since ?? 0) : 0) || a.name.localeCompare(b.name);
  });
