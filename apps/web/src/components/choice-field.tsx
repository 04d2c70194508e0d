import { type ReactNode, useId } from 'react';

interface ChoiceFieldProps<V extends string> {
  label: string;
  hint?: ReactNode;
  value: V;
  onChange: (value: V) => void;
  choices: readonly { value: V; label: string }[];
}

/** A labelled choice among a few fixed options (a `<select>`), its hint tied to it for screen readers. */
export function ChoiceField<V extends string>({ label, hint, value, onChange, choices }: ChoiceFieldProps<V>) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as V)} aria-describedby={hint ? hintId : undefined}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
