import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form';
import { ErrorText, errorAt } from './error-text.tsx';

interface TextFieldProps<T extends FieldValues> extends Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'form'> {
  /** The form the field belongs to: its value is registered there, its error read from there. */
  form: Pick<UseFormReturn<T>, 'register' | 'formState'>;
  name: Path<T>;
  label: string;
  hint?: ReactNode;
  /** Blank means "not given" (undefined), as the API's optional fields expect. */
  optional?: boolean;
  /** Checks of its own, for a form not validated by an API schema. */
  rules?: RegisterOptions<T, Path<T>>;
}

/** A labelled input whose error is shown under it and tied to it for screen readers. */
export function TextField<T extends FieldValues>({ form, name, label, hint, optional = false, rules, ...input }: TextFieldProps<T>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const error = errorAt(form.formState.errors, name);
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const registration = form.register(name, optional ? { ...rules, setValueAs: optionalText } : rules);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} {...registration} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      <ErrorText id={errorId} message={error} />
    </div>
  );
}

function optionalText(value: string | undefined): string | undefined {
  return value?.trim() ? value : undefined;
}
