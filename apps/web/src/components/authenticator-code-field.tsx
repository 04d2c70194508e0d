import type { ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { TextField } from './text-field.tsx';

/** Six digits, spaces allowed ("123 456"), as an authenticator app shows them; the API takes them so. */
const isAuthenticatorCode = (typed: string): boolean => /^\d{6}$/.test(typed.replace(/\s/g, ''));

/** The field for a code from an authenticator app, wherever one is asked for: one input kind, one check. */
export function AuthenticatorCodeField<T extends FieldValues>({
  form,
  name,
  hint,
}: {
  form: Pick<UseFormReturn<T>, 'register' | 'formState'>;
  name: Path<T>;
  hint?: ReactNode;
}) {
  return (
    <TextField
      form={form}
      name={name}
      label="Authentication code"
      autoComplete="one-time-code"
      inputMode="numeric"
      hint={hint}
      rules={{ validate: (value) => isAuthenticatorCode(value) || 'Must be the 6 digits the authenticator app shows.' }}
    />
  );
}
