import { MIN_PASSWORD_LENGTH } from '@lfk/vocabulary';
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form';
import { TextField } from './text-field.tsx';

interface PasswordFieldProps<T extends FieldValues> {
  form: Pick<UseFormReturn<T>, 'register' | 'formState'>;
  name: Path<T>;
  label: string;
}

/** The password the person has, typed to prove who they are: the browser's password manager may fill it in. */
export function CurrentPasswordField<T extends FieldValues>(field: PasswordFieldProps<T> & { rules?: RegisterOptions<T, Path<T>> }) {
  return <TextField {...field} type="password" autoComplete="current-password" />;
}

/** A password being chosen: the browser may offer to make one, and the hint says the API's least length. */
export function NewPasswordField<T extends FieldValues>({
  consequence,
  ...field
}: PasswordFieldProps<T> & {
  /** What choosing it does besides, after the length the API asks for. */
  consequence?: string;
}) {
  const length = `At least ${MIN_PASSWORD_LENGTH} characters.`;
  return <TextField {...field} type="password" autoComplete="new-password" hint={consequence ? `${length} ${consequence}` : length} />;
}
