import { useEffect, useRef, useState } from 'react';
import type { AlertRuleInput, ConsoleAlertRule } from '@ecomm-sync/contracts';
import { SelectField } from '../components/select-field';
import { MAX_ALERT_MINUTES, MAX_ALERT_NAME_LENGTH, MAX_ALERT_THRESHOLD } from '../input-limits';
import { draftOf, hasStore, inputOf, MEASURES, NEW_RULE, RULE_KINDS, type RuleDraft, type RuleKind } from './alert-rule-draft';
import { ERROR_TYPES } from './scope';

/** A labelled number input with its limits said beside it (the form refuses what the API would). */
function NumberField({
  id,
  label,
  value,
  onChange,
  min,
  max,
  step,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  step: number | 'any';
  hint: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        min={min}
        max={max}
        step={step}
        required
        aria-describedby={`${id}-hint`}
      />
      <span className="help" id={`${id}-hint`}>
        {hint}
      </span>
    </div>
  );
}

/**
 * Adds a rule, or edits `editing` (name, condition and its figures, store, enabled). `onSave`
 * answers whether the service took it: a refused rule stays in the form, with the notice beside it.
 */
export function AlertRuleForm({
  editing,
  storeIds,
  busy,
  onSave,
  onCancel,
}: {
  editing: ConsoleAlertRule | null;
  storeIds: readonly string[];
  busy: boolean;
  onSave: (input: AlertRuleInput) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<RuleDraft>(() => (editing ? draftOf(editing) : NEW_RULE));
  const heading = useRef<HTMLHeadingElement>(null);
  const set = (change: Partial<RuleDraft>) => setDraft((current) => ({ ...current, ...change }));
  const id = editing ? `edit-rule` : 'add-rule';

  // Editing starts at the form: focus moves to its heading, so the keyboard and screen readers follow.
  useEffect(() => {
    if (editing) heading.current?.focus();
  }, [editing?.id]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if ((await onSave(inputOf(draft))) && !editing) setDraft(NEW_RULE);
  };

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} ref={heading} tabIndex={-1}>
        {editing ? `Edit rule “${editing.name}”` : 'Add a rule'}
      </h3>
      <form className="filters alert-form" aria-labelledby={`${id}-heading`} onSubmit={(e) => void submit(e)}>
        <label>
          Name
          <input value={draft.name} onChange={(e) => set({ name: e.target.value })} required maxLength={MAX_ALERT_NAME_LENGTH} />
        </label>
        <SelectField label="Fires when" value={draft.kind} onChange={(kind) => set({ kind: kind as RuleKind })} choices={RULE_KINDS} />
        {draft.kind === 'open-errors' ? (
          <>
            <SelectField label="Error type" value={draft.errorType} onChange={(errorType) => set({ errorType })} first="Any error type" choices={ERROR_TYPES} />
            <SelectField
              label="Measured as"
              value={draft.measure}
              onChange={(measure) => set({ measure: measure as RuleDraft['measure'] })}
              choices={MEASURES}
            />
            <NumberField
              id={`${id}-threshold`}
              label={draft.measure === 'share' ? 'Threshold (%)' : 'Threshold (open errors)'}
              value={draft.threshold}
              onChange={(threshold) => set({ threshold })}
              min={0}
              max={draft.measure === 'share' ? 99.99 : MAX_ALERT_THRESHOLD}
              step={draft.measure === 'share' ? 'any' : 1}
              hint={
                draft.measure === 'share'
                  ? 'Fires when more than this share of the objects processed in the last hour have an open error: 0 to 99.99.'
                  : `Fires above this number: 0 to ${MAX_ALERT_THRESHOLD.toLocaleString('en')}.`
              }
            />
          </>
        ) : null}
        {draft.kind === 'sync-lag' ? (
          <NumberField
            id={`${id}-minutes`}
            label="Minutes of lag"
            value={draft.minutes}
            onChange={(minutes) => set({ minutes })}
            min={1}
            max={MAX_ALERT_MINUTES}
            step={1}
            hint={`1 to ${MAX_ALERT_MINUTES.toLocaleString('en')} (a week).`}
          />
        ) : null}
        {hasStore(draft.kind) ? (
          <SelectField label="Store" value={draft.storeId} onChange={(storeId) => set({ storeId })} first="All stores" choices={storeIds} />
        ) : null}
        {draft.kind === 'crm-connection' ? (
          <NumberField
            id={`${id}-unreachable`}
            label="Minutes without an answer"
            value={draft.unreachableMinutes}
            onChange={(unreachableMinutes) => set({ unreachableMinutes })}
            min={1}
            max={MAX_ALERT_MINUTES}
            step={1}
            hint="A refused token (401/403) or the daily cap fires at once."
          />
        ) : null}
        <label className="choice align-end">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
        <div className="form-actions align-end">
          <button type="submit" disabled={busy}>
            {editing ? 'Save the rule' : 'Add the rule'}
          </button>
          {editing ? (
            <button type="button" className="plain" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
