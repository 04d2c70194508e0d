import { formUpdateInput } from '@lfk/api/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpc } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { Loaded } from '../../components/states.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { editorResolver } from './editor-resolver.ts';
import { EmbedSnippet } from './embed-snippet.tsx';
import { FormEditor } from './form-editor.tsx';
import { changedFields, EDITOR_FIELDS, type Form, toApiFields, valuesOf } from './form-values.ts';
import { FormsBreadcrumb } from './forms-subpage.tsx';
import { DeleteForm } from './delete-form.tsx';
import { InboxSettings } from './inbox-settings.tsx';
import { AutoReplySettings } from './auto-reply-settings.tsx';
import { EmailPreviews } from './email-previews.tsx';
import { RefusedOrigins } from './refused-origins.tsx';
import { VerificationStatus } from './verification-status.tsx';

export function FormPage() {
  const workspace = useWorkspace();
  const { formId } = useParams({ from: '/w/$workspaceId/forms/$formId' });
  const form = useQuery(trpc.forms.get.queryOptions({ form_id: formId }));
  usePageTitle(form.data?.name ?? 'Form', workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} />
      <Loaded query={form} what="the form">
        {(loaded) => <LoadedForm form={loaded} workspaceId={workspace.id} role={workspace.role} />}
      </Loaded>
    </>
  );
}

function LoadedForm({ form, workspaceId, role }: { form: Form; workspaceId: string; role: string }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const editor = useForm({ resolver: editorResolver(formUpdateInput, { form_id: form.id }), defaultValues: valuesOf(form) });
  const problem = useFormProblem(EDITOR_FIELDS, editor.setError);
  const update = useMutation({
    ...trpc.forms.update.mutationOptions(),
    onSuccess: (updated) => {
      queryClient.setQueryData(trpc.forms.get.queryKey({ form_id: form.id }), updated);
      // The saved form is the new starting point: what changes next is measured from it.
      editor.reset(valuesOf(updated));
      void queryClient.invalidateQueries(trpc.forms.list.pathFilter());
      // The emails a submission sends follow the name, the fields and the addresses.
      void queryClient.invalidateQueries(trpc.submissions.emailPreviews.queryFilter({ form_id: form.id }));
      setSaved(true);
    },
    onError: problem.report,
  });
  /** Adds a refused origin to the list being edited; Save sends it with the rest. */
  const allow = (origin: string) => {
    const listed = editor.getValues('allowed_origins').trim();
    editor.setValue('allowed_origins', listed ? `${listed}\n${origin}` : origin, { shouldDirty: true });
  };
  const save = (fields: ReturnType<typeof toApiFields>) => {
    problem.clear();
    setSaved(false);
    update.mutate({ form_id: form.id, ...changedFields(toApiFields(valuesOf(form)), fields) });
  };
  return (
    <>
      <div className="page-header">
        <h1>{form.name}</h1>
        <div className="actions">
          <Link className="button" to="/w/$workspaceId/forms/$formId/submissions" params={{ workspaceId, formId: form.id }}>
            Submissions
          </Link>
          {form.drafts.enabled && (
            <Link className="button secondary" to="/w/$workspaceId/forms/$formId/drafts" params={{ workspaceId, formId: form.id }}>
              Drafts
            </Link>
          )}
          <Link className="button secondary" to="/w/$workspaceId/forms/$formId/webhooks" params={{ workspaceId, formId: form.id }}>
            Webhooks
          </Link>
        </div>
      </div>
      <p className="muted">
        <code>{form.id}</code> · {form.submission_mode === 'api_key' ? 'API key submissions' : 'Browser submissions'}
        {form.closed && (
          <>
            {' '}
            · <span className="badge badge-pending">Closed</span>
          </>
        )}
      </p>
      <EmbedSnippet form={form} />
      <section aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <FormEditor
          form={editor}
          workspaceId={workspaceId}
          problem={problem}
          submitLabel="Save changes"
          pending={update.isPending}
          onSubmit={save}
          notifyEmailExtra={<VerificationStatus form={form} />}
          originsExtra={<RefusedOrigins form={form} onAllow={allow} />}
        />
        <p role="status">{saved ? 'Changes saved.' : ''}</p>
      </section>
      <AutoReplySettings form={form} />
      <EmailPreviews formId={form.id} />
      <InboxSettings form={form} />
      {role === 'owner' && <DeleteForm form={form} workspaceId={workspaceId} />}
    </>
  );
}
