import { PAGE_LIMIT } from '@lfk/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { trpc } from '../../api/trpc.ts';
import { ErrorText, errorAt } from '../../components/error-text.tsx';
import type { FormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { FieldBuilder } from './field-builder.tsx';
import type { ApiFormFields, EditorValues } from './form-values.ts';

interface FormEditorProps {
  form: UseFormReturn<EditorValues, unknown, ApiFormFields>;
  workspaceId: string;
  problem: FormProblem;
  onSubmit: (fields: ApiFormFields) => void;
  submitLabel: string;
  pending: boolean;
  /** Shown under the notification emails (whether each is verified, on an existing form). */
  notifyEmailExtra?: ReactNode;
  /** Shown under the allowed origins (the origins refused lately, on an existing form). */
  originsExtra?: ReactNode;
}

/** Everything a form has that a person sets: its name, fields, who may submit, where mail goes. */
export function FormEditor({ form, workspaceId, problem, onSubmit, submitLabel, pending, notifyEmailExtra, originsExtra }: FormEditorProps) {
  const id = useId();
  const projects = useQuery(trpc.projects.list.queryOptions({ workspace_id: workspaceId, limit: PAGE_LIMIT.max }));
  const errors = form.formState.errors;
  const described = (name: string, hint: boolean) =>
    [hint ? `${id}-${name}-hint` : '', errorAt(errors, name) ? `${id}-${name}-error` : ''].join(' ').trim() || undefined;
  return (
    <SubmitForm className="form-editor" onSubmit={form.handleSubmit(onSubmit)} problem={problem} submitLabel={submitLabel} pending={pending}>
      <TextField form={form} name="name" label="Form name" autoComplete="off" />
      <FieldBuilder form={form as unknown as UseFormReturn<EditorValues, unknown, unknown>} />
      <div className="field">
        <label htmlFor={`${id}-unknown_fields`}>Fields the form does not name</label>
        <select id={`${id}-unknown_fields`} {...form.register('unknown_fields')} aria-describedby={described('unknown_fields', true)}>
          <option value="keep">Keep them, as text after the form’s fields</option>
          <option value="reject">Refuse the submission</option>
          <option value="ignore">Drop them</option>
        </select>
        <p className="hint" id={`${id}-unknown_fields-hint`}>
          What a submission gets when the page’s form sends an input these fields do not name.
        </p>
        <ErrorText id={`${id}-unknown_fields-error`} message={errorAt(errors, 'unknown_fields')} />
      </div>
      <fieldset>
        <legend>Who may submit</legend>
        <div className="field radio">
          <input id={`${id}-browser`} type="radio" value="browser" {...form.register('submission_mode')} />
          <label htmlFor={`${id}-browser`}>Browsers on the allowed origins (a plain HTML form on your site)</label>
        </div>
        <div className="field radio">
          <input id={`${id}-api-key`} type="radio" value="api_key" {...form.register('submission_mode')} />
          <label htmlFor={`${id}-api-key`}>Only your servers, with an API key</label>
        </div>
        <ErrorText id={`${id}-submission_mode-error`} message={errorAt(errors, 'submission_mode')} />
        <div className="field">
          <label htmlFor={`${id}-allowed_origins`}>Allowed origins</label>
          <textarea
            id={`${id}-allowed_origins`}
            rows={3}
            {...form.register('allowed_origins')}
            aria-invalid={errorAt(errors, 'allowed_origins') ? true : undefined}
            aria-describedby={described('allowed_origins', true)}
          />
          <p className="hint" id={`${id}-allowed_origins-hint`}>
            One per line, such as https://example.com: the sites whose pages may post this form. None means no browser can.
          </p>
          <ErrorText id={`${id}-allowed_origins-error`} message={errorAt(errors, 'allowed_origins')} />
          {originsExtra}
        </div>
      </fieldset>
      <TextField
        form={form}
        name="redirect_url"
        label="Redirect URL"
        type="url"
        autoComplete="off"
        hint="Optional: where a person goes after posting the HTML form. Without it they see a thank-you page."
      />
      <TextField
        form={form}
        name="error_redirect_url"
        label="Error redirect URL"
        type="url"
        autoComplete="off"
        hint={
          'Optional: where a person goes when the form refuses what they posted, with ?error=<code>&fields=<names>. ' +
          'Without it they see lfk’s page, with a way back.'
        }
      />
      <div className="field">
        <label htmlFor={`${id}-notify_emails`}>Notification emails</label>
        <textarea
          id={`${id}-notify_emails`}
          rows={2}
          autoComplete="off"
          {...form.register('notify_emails')}
          aria-invalid={errorAt(errors, 'notify_emails') ? true : undefined}
          aria-describedby={described('notify_emails', true)}
        />
        <p className="hint" id={`${id}-notify_emails-hint`}>
          Optional, up to 5, one per line: who is emailed each submission, each once the address is verified.
        </p>
        <ErrorText id={`${id}-notify_emails-error`} message={errorAt(errors, 'notify_emails')} />
        {notifyEmailExtra}
      </div>
      <div className="field">
        <label htmlFor={`${id}-project_id`}>Project</label>
        <select id={`${id}-project_id`} {...form.register('project_id')} aria-describedby={described('project_id', false)}>
          {(projects.data?.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <ErrorText id={`${id}-project_id-error`} message={errorAt(errors, 'project_id')} />
      </div>
      <ErrorText id={`${id}-root-error`} message={errorAt(errors, 'root')} />
    </SubmitForm>
  );
}
