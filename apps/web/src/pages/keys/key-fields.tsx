import { useId } from 'react';
import type { Path, UseFormReturn } from 'react-hook-form';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
import { TextField } from '../../components/text-field.tsx';

/** What an owner writes of a key, as the form holds it: the allowlist is one address or range per line. */
export interface KeyFieldValues {
  name: string;
  description: string;
  allowed_ips: string;
}

export const KEY_FIELDS = ['name', 'description', 'allowed_ips'] as const;

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The form's values as the API takes them. A blank field is `blank`: left out when creating
 * (undefined), cleared when editing (null). No addresses is any address.
 */
export function keyFieldsToApi<B extends undefined | null>(values: KeyFieldValues, blank: B) {
  const ips = lines(values.allowed_ips);
  return {
    name: values.name.trim() ? values.name : blank,
    description: values.description.trim() ? values.description : blank,
    allowed_ips: ips.length > 0 ? ips : blank,
  };
}

export const keyFieldsOf = (key: { name: string | null; description: string | null; allowed_ips: string[] | null }): KeyFieldValues => ({
  name: key.name ?? '',
  description: key.description ?? '',
  allowed_ips: (key.allowed_ips ?? []).join('\n'),
});

/** Name, description and where the key may be used from: what create and edit share, in a form holding at least these. */
export function KeyFields<T extends KeyFieldValues>({ form }: { form: Pick<UseFormReturn<T>, 'register' | 'formState'> }) {
  const id = useId();
  const error = errorAt(form.formState.errors, 'allowed_ips');
  const field = (name: keyof KeyFieldValues) => name as Path<T>;
  return (
    <>
      <TextField
        form={form}
        name={field('name')}
        label="Name"
        hint="Optional: what uses this key, such as “deploy bot”. Names help when revoking."
        autoComplete="off"
      />
      <TextField form={form} name={field('description')} label="Description" hint="Optional: where it runs, who looks after it." autoComplete="off" />
      <div className="field">
        <label htmlFor={`${id}-allowed`}>Allowed IP addresses</label>
        <textarea
          id={`${id}-allowed`}
          rows={3}
          spellCheck={false}
          autoComplete="off"
          placeholder={'203.0.113.7\n2001:db8::/32'}
          {...form.register(field('allowed_ips'))}
          aria-invalid={error ? true : undefined}
          aria-describedby={[`${id}-allowed-hint`, error ? `${id}-allowed-error` : ''].join(' ').trim()}
        />
        <p className="hint" id={`${id}-allowed-hint`}>
          Optional: IPv4 or IPv6 addresses or CIDR ranges, one per line (up to 20); IPv4 clients are matched by IPv4 entries only. From anywhere else the key is
          refused, as if it did not exist. Empty: any address.
        </p>
        <ErrorText id={`${id}-allowed-error`} message={error} />
      </div>
    </>
  );
}
