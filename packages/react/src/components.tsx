import { PROVIDERS } from '@lfk/browser/spam-controls';
import { progressWords, SENT } from '@lfk/browser/outcome';
import { type ComponentPropsWithoutRef, createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import type { LfkFormApi, LfkFormOptions } from './use-lfk-form.ts';
import { useLfkForm } from './use-lfk-form.ts';
import type { PublicField } from './types.ts';

const LfkFormContext = createContext<LfkFormApi | null>(null);

/** The form a helper belongs to: its `form` prop, else the `<LfkForm>` around it. */
function useFormOf(form: LfkFormApi | undefined, helper: string): LfkFormApi {
  const around = useContext(LfkFormContext);
  const found = form ?? around;
  if (!found) throw new Error(`<${helper}> needs a form: put it inside <LfkForm>, or pass form={useLfkForm(…)}`);
  return found;
}

export interface LfkErrorProps {
  name: string;
  /** The form it belongs to, when it is not inside `<LfkForm>`. */
  form?: LfkFormApi;
}

/** The message lfk gave for one field, linked to its input by id; nothing while there is none. */
export function LfkError({ name, form }: LfkErrorProps) {
  const f = useFormOf(form, 'LfkError');
  const message = f.errors[name];
  return message ? (
    <span id={f.errorId(name)} className="lfk-error" data-lfk-error="">
      {message}
    </span>
  ) : null;
}

export interface LfkFieldProps {
  name: string;
  /** Shown instead of the label the owner gave the field (else its name). */
  label?: ReactNode;
  form?: LfkFormApi;
  /** More attributes for the input, textarea or select (a placeholder, a class). */
  inputProps?: ComponentPropsWithoutRef<'input'> & ComponentPropsWithoutRef<'textarea'> & ComponentPropsWithoutRef<'select'>;
}

const INPUT_TYPES: Partial<Record<PublicField['type'], string>> = { email: 'email', number: 'number', url: 'url', tel: 'tel', date: 'date', file: 'file' };

/**
 * One field of the form, drawn from its description: its label, the control its type asks for
 * (with lfk's limits: required, length, the file types it takes, several files), and its error,
 * linked by `aria-describedby` and marked `aria-invalid` when lfk refused it.
 */
export function LfkField({ name, label, form, inputProps = {} }: LfkFieldProps) {
  const f = useFormOf(form, 'LfkField');
  const field = f.description?.fields.find((candidate) => candidate.name === name);
  if (!field) return null;
  const invalid = f.errors[name] !== undefined;
  const control = {
    ...inputProps,
    id: f.inputId(name),
    name,
    required: field.required,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? f.errorId(name) : undefined,
  };
  const text = label ?? field.label ?? name;
  if (field.type === 'checkbox') {
    return (
      <div className="lfk-field lfk-checkbox">
        <input type="checkbox" value="true" {...control} />
        <label htmlFor={control.id}>{text}</label>
        <LfkError name={name} form={f} />
      </div>
    );
  }
  let input: ReactNode;
  if (field.type === 'textarea') input = <textarea maxLength={field.max_length} {...control} />;
  else if (field.type === 'select') {
    input = (
      <select defaultValue="" {...control}>
        <option value="" disabled>
          Choose…
        </option>
        {field.options?.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    const type = INPUT_TYPES[field.type] ?? 'text';
    const files = type === 'file' ? { accept: field.accept?.join(',') || undefined, multiple: field.multiple || undefined } : {};
    input = <input type={type} maxLength={field.max_length} {...files} {...control} />;
  }
  return (
    <div className="lfk-field">
      <label htmlFor={control.id}>{text}</label>
      {input}
      <LfkError name={name} form={f} />
    </div>
  );
}

export interface LfkFormProps extends LfkFormOptions, Omit<ComponentPropsWithoutRef<'form'>, 'action' | 'method' | 'onSubmit'> {
  formId: string;
  /** Shown in place of the form after a success (focused); else "Thank you: your answers were sent." */
  success?: ReactNode;
  /** The submit button's words, when the form draws its own fields. */
  submitLabel?: string;
  /** Your own fields (`<LfkField>`s, inputs of your own); without children, every field of the description. */
  children?: ReactNode;
}

/**
 * The whole form: a real `<form method="post" action=…>` (it posts without JavaScript, or before
 * it loads), its fields, the honeypot and captcha its description names, upload progress with a
 * cancel button, a live region for what lfk says, and the success in place.
 */
export function LfkForm({ formId, baseUrl, description, onSuccess, success, submitLabel = 'Send', children, ...formProps }: LfkFormProps) {
  const form = useLfkForm(formId, { baseUrl, description: description ?? null, onSuccess });
  const done = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (form.succeeded) done.current?.focus();
  }, [form.succeeded]);
  if (form.succeeded) {
    return (
      <div ref={done} tabIndex={-1} role="status" className="lfk-success">
        {success ?? <p>{SENT}</p>}
      </div>
    );
  }
  const d = form.description;
  const hasFiles = d?.fields.some((field) => field.type === 'file');
  return (
    <LfkFormContext.Provider value={form}>
      <form
        {...formProps}
        ref={form.formRef}
        method="post"
        action={form.action}
        encType={hasFiles ? 'multipart/form-data' : undefined}
        onSubmit={form.handleSubmit}
      >
        {d?.honeypot_field && (
          <div aria-hidden="true" style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}>
            <label>
              Leave this empty <input type="text" name={d.honeypot_field} tabIndex={-1} autoComplete="off" />
            </label>
          </div>
        )}
        {children ?? d?.fields.map((field) => <LfkField key={field.name} name={field.name} />)}
        {d?.captcha && <div className={PROVIDERS[d.captcha.provider][0]} data-sitekey={d.captcha.site_key} />}
        {form.progress && (
          <div className="lfk-progress">
            <progress max={100} value={form.progress.percent} aria-label="Upload progress" />
            <span>{progressWords(form.progress.loaded, form.progress.total)}</span>
            <button type="button" onClick={form.cancel}>
              Cancel upload
            </button>
          </div>
        )}
        {children === undefined && (
          <button type="submit" disabled={form.submitting || (d !== null && !d.open)}>
            {submitLabel}
          </button>
        )}
        <div role="status" aria-live="polite" className="lfk-status">
          {form.submitting && !form.progress ? 'Sending…' : form.message}
        </div>
      </form>
    </LfkFormContext.Provider>
  );
}
