import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name'> {
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError | undefined;
  hint?: ReactNode;
}

/** A labelled input whose error is shown under it and tied to it for screen readers. */
export function TextField({ label, registration, error, hint, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} {...registration} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error?.message && (
        <p className="field-error" id={errorId}>
          {error.message}
        </p>
      )}
    </div>
  );
}

/** For an optional text field: blank means "not given", as the API's optional fields expect. */
export function optionalText(value: string | undefined): string | undefined {
  return value?.trim() ? value : undefined;
}
