import type { RouterInputs } from '@lfk/client';
import { AUTO_REPLY_LIMITS } from '@lfk/vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import type { Form } from './form-values.ts';

/** The section's values, as typed; nested as the API's `details` name them (`auto_reply.subject`). */
interface AutoReplyValues {
  auto_reply: { enabled: boolean; email_field: string; subject: string; text: string };
}

const FIELDS = ['auto_reply', 'auto_reply.enabled', 'auto_reply.email_field', 'auto_reply.subject', 'auto_reply.text'];

const valuesOf = (form: Form, emailFields: string[]): AutoReplyValues => ({
  auto_reply: form.auto_reply
    ? { ...form.auto_reply }
    : {
        enabled: false,
        email_field: emailFields[0] ?? '',
        subject: 'Thanks: we got your message',
        text: 'Hello,\n\nThank you for writing to us. We will answer soon.',
      },
});

type AutoReplyUpdate = RouterInputs['forms']['update']['auto_reply'];

/** What to send: the whole reply when it is on or was set before; nothing when it never was and stays off. */
function changeOf(form: Form, values: AutoReplyValues): AutoReplyUpdate | undefined {
  const next = values.auto_reply;
  if (!form.auto_reply && !next.enabled) return undefined;
  return { enabled: next.enabled, email_field: next.email_field, subject: next.subject, text: next.text };
}

/**
 * A form's auto-reply to the person who submitted: whether it is on, which email field it answers,
 * its subject and words. The server fills in the `{field}` placeholders, says who sent it and why,
 * and adds the link that stops them.
 */
export function AutoReplySettings({ form }: { form: Form }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const emailFields = form.schema.filter((field) => field.type === 'email').map((field) => field.name);
  const editor = useForm<AutoReplyValues>({ defaultValues: valuesOf(form, emailFields) });
  const problem = useFormProblem(FIELDS, editor.setError);
  const errors = editor.formState.errors;
  const save = useMutation({
    mutationFn: async (values: AutoReplyValues) => {
      const change = changeOf(form, values);
      return change === undefined ? form : trpcClient.forms.update.mutate({ form_id: form.id, auto_reply: change });
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(trpc.forms.get.queryKey({ form_id: form.id }), updated);
      editor.reset(valuesOf(updated, emailFields));
      void queryClient.invalidateQueries(trpc.submissions.emailPreviews.queryFilter({ form_id: form.id }));
      setSaved(true);
    },
    onError: (error) => problem.report(error),
  });
  const submit = (values: AutoReplyValues) => {
    problem.clear();
    setSaved(false);
    save.mutate(values);
  };
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Auto-reply</h2>
      {emailFields.length === 0 ? (
        <p>Add an email field to the form to answer each person who submits it.</p>
      ) : (
        <SubmitForm className="form-editor" onSubmit={editor.handleSubmit(submit)} problem={problem} submitLabel="Save auto-reply" pending={save.isPending}>
          <div className="field checkbox">
            <input id={`${id}-enabled`} type="checkbox" {...editor.register('auto_reply.enabled')} />
            <label htmlFor={`${id}-enabled`}>Answer each submission by email</label>
          </div>
          <div className="field">
            <label htmlFor={`${id}-email_field`}>Send it to the address in</label>
            <select
              id={`${id}-email_field`}
              {...editor.register('auto_reply.email_field')}
              aria-describedby={errorAt(errors, 'auto_reply.email_field') ? `${id}-email_field-error` : undefined}
            >
              {emailFields.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <ErrorText id={`${id}-email_field-error`} message={errorAt(errors, 'auto_reply.email_field')} />
          </div>
          <TextField form={editor} name="auto_reply.subject" label="Subject" autoComplete="off" maxLength={AUTO_REPLY_LIMITS.subject} />
          <div className="field">
            <label htmlFor={`${id}-text`}>Message</label>
            <textarea
              id={`${id}-text`}
              rows={6}
              {...editor.register('auto_reply.text')}
              aria-invalid={errorAt(errors, 'auto_reply.text') ? true : undefined}
              aria-describedby={[`${id}-text-hint`, errorAt(errors, 'auto_reply.text') ? `${id}-text-error` : ''].join(' ').trim()}
            />
            <p className="hint" id={`${id}-text-hint`}>
              Plain text. {'{'}field{'}'} is replaced by what the person gave there ({form.schema.map((field) => `{${field.name}}`).join(', ')}). lfk adds who
              sent it, why, and a link to stop them. Never sent for spam, and only a few a day to any one address.
            </p>
            <ErrorText id={`${id}-text-error`} message={errorAt(errors, 'auto_reply.text')} />
          </div>
          <ErrorText id={`${id}-root-error`} message={errorAt(errors, 'root')} />
        </SubmitForm>
      )}
      {form.auto_replies_skipped > 0 && (
        <p className="wrap-anywhere">
          <span className="badge badge-pending">{form.auto_replies_skipped} skipped</span> Auto-replies not sent because the address asked for no more, or a
          limit was reached: someone may be entering other people’s addresses.
        </p>
      )}
      <p role="status">{saved ? 'Auto-reply saved.' : ''}</p>
    </section>
  );
}
