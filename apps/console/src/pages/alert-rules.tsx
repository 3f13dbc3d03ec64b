import type { ConsoleAlertRule } from '@ecomm-sync/contracts';
import { TimeOf } from '../components/states';
import { describeCondition, STATUS_LABELS, statusOf } from './alert-rule-draft';

/** A rule's state as a badge: firing, ok, disabled, or not evaluated yet. */
export function RuleStatusBadge({ rule }: { rule: ConsoleAlertRule }) {
  const status = statusOf(rule);
  return <span className={`badge ${status}`}>{STATUS_LABELS[status]}</span>;
}

/** Since when a rule is in its state, and its figure as the evaluator last measured it. */
export function RuleState({ rule }: { rule: ConsoleAlertRule }) {
  if (statusOf(rule) === 'off') return <span className="muted">Not evaluated while disabled</span>;
  if (rule.lastEvaluatedAt === null) return <span className="muted">Evaluated within a minute</span>;
  return (
    <>
      {rule.state.since === null ? null : (
        <>
          Since <TimeOf at={rule.state.since} />:{' '}
        </>
      )}
      {rule.state.summary}
    </>
  );
}

/** The tenant's rules with their state; each row edits, enables or disables its rule, and deletes one the customer made (install rules are disabled instead). */
export function AlertRulesTable({
  rules,
  busy,
  onEdit,
  onSetEnabled,
  onDelete,
}: {
  rules: readonly ConsoleAlertRule[];
  busy: boolean;
  onEdit: (rule: ConsoleAlertRule) => void;
  onSetEnabled: (rule: ConsoleAlertRule, enabled: boolean) => void;
  onDelete: (rule: ConsoleAlertRule) => void;
}) {
  return (
    <table className="alert-rules">
      <caption>Rules and their state</caption>
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Fires when</th>
          <th scope="col">State</th>
          <th scope="col">Current value</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {rules.map((rule) => (
          <tr key={rule.id} data-rule-name={rule.name} data-status={statusOf(rule)}>
            <th scope="row">
              {rule.name}
              {rule.isDefault ? <span className="kept"> · came with the install</span> : null}
            </th>
            <td>{describeCondition(rule.condition, rule.storeId)}</td>
            <td>
              <RuleStatusBadge rule={rule} />
            </td>
            <td data-value={rule.state.value}>
              <span className="figure">{rule.lastEvaluatedAt === null || !rule.enabled ? '–' : rule.state.value}</span>{' '}
              <span className="muted">
                <RuleState rule={rule} />
              </span>
            </td>
            <td className="actions">
              <button type="button" className="plain" disabled={busy} aria-label={`Edit rule ${rule.name}`} onClick={() => onEdit(rule)}>
                Edit
              </button>{' '}
              <button
                type="button"
                className="plain"
                disabled={busy}
                aria-label={`${rule.enabled ? 'Disable' : 'Enable'} rule ${rule.name}`}
                onClick={() => onSetEnabled(rule, !rule.enabled)}
              >
                {rule.enabled ? 'Disable' : 'Enable'}
              </button>
              {/* A rule that came with the install is disabled, not deleted (the service refuses it). */}
              {rule.isDefault ? null : (
                <>
                  {' '}
                  <button
                    type="button"
                    className="plain"
                    disabled={busy}
                    aria-label={`Delete rule ${rule.name}`}
                    onClick={() => window.confirm(`Delete the rule “${rule.name}”?`) && onDelete(rule)}
                  >
                    Delete
                  </button>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
