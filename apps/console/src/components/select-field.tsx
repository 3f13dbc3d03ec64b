import { useRef, useState } from 'react';

/** One choice of a select: its value, or its value and the text shown for it. */
export type Choice = string | readonly [value: string, text: string];

/** Keys that only move through a select's options (or type ahead in them): not a choice made yet. */
const BROWSING = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * A labelled select. `first` is an option with the empty value shown before the choices ("All
 * stores" on a filter, "Pick a portal" on a required pick). With `applyOnCommit` (a filter whose
 * change reloads or navigates), arrowing or typing through the options only shows them: the choice
 * is applied on Enter or when focus leaves the select, as WAI-ARIA asks; a pick with the pointer
 * applies at once.
 */
export function SelectField({
  label,
  value,
  onChange,
  choices,
  first,
  required,
  applyOnCommit,
}: {
  label: React.ReactNode;
  value: string;
  onChange: (value: string) => void;
  choices: readonly Choice[];
  first?: string;
  required?: boolean;
  applyOnCommit?: boolean;
}) {
  const [draft, setDraft] = useState<string>();
  const browsing = useRef(false);
  const commit = () => {
    browsing.current = false;
    if (draft === undefined) return;
    setDraft(undefined);
    if (draft !== value) onChange(draft);
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLSelectElement>) => {
    if (!applyOnCommit) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (BROWSING.has(event.key) || event.key.length === 1) browsing.current = true;
  };
  return (
    <label>
      {label}
      <select
        value={draft ?? value}
        required={required}
        onKeyDown={onKeyDown}
        onPointerDown={() => (browsing.current = false)}
        onBlur={applyOnCommit ? commit : undefined}
        onChange={(e) => {
          if (applyOnCommit && browsing.current) setDraft(e.target.value);
          else onChange(e.target.value);
        }}
      >
        {first === undefined ? null : <option value="">{first}</option>}
        {choices.map((choice) => {
          const [key, text] = typeof choice === 'string' ? [choice, choice] : choice;
          return (
            <option key={key} value={key}>
              {text}
            </option>
          );
        })}
      </select>
    </label>
  );
}
