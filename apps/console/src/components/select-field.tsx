/** One choice of a select: its value, or its value and the text shown for it. */
export type Choice = string | readonly [value: string, text: string];

/**
 * A labelled select. `first` is an option with the empty value shown before the choices ("All
 * stores" on a filter, "Pick a portal" on a required pick).
 */
export function SelectField({
  label,
  value,
  onChange,
  choices,
  first,
  required,
}: {
  label: React.ReactNode;
  value: string;
  onChange: (value: string) => void;
  choices: readonly Choice[];
  first?: string;
  required?: boolean;
}) {
  return (
    <label>
      {label}
      <select value={value} required={required} onChange={(e) => onChange(e.target.value)}>
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
