import { type FieldErrors, type FieldValues, get } from 'react-hook-form';

/** The message of the error at `path` (a field array's own error sits at `path.root`). */
export function errorAt<T extends FieldValues>(errors: FieldErrors<T>, path: string): string | undefined {
  const error = get(errors, path) as { message?: string; root?: { message?: string } } | undefined;
  return error?.message ?? error?.root?.message;
}

/** An error under a field, tied to it by `id` (the field's `aria-describedby`). */
export function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id}>
      {message}
    </p>
  );
}
