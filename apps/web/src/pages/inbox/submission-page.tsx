import { SPAM_REASON_WORDS } from '@lfk/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { trpc } from '../../api/trpc.ts';
import { Loaded } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { FormsBreadcrumb } from '../forms/forms-subpage.tsx';
import { SpamVerdict } from './spam-verdict.tsx';
import { SubmissionValues } from './submission-values.tsx';

/** One submission, opened: where a chat message's or an email's link leads. */
export function SubmissionPage() {
  const workspace = useWorkspace();
  const { formId, submissionId } = useParams({ from: '/w/$workspaceId/forms/$formId/submissions/$submissionId' });
  const form = useQuery(trpc.forms.get.queryOptions({ form_id: formId }));
  const submission = useQuery(trpc.submissions.get.queryOptions({ form_id: formId, submission_id: submissionId }));
  usePageTitle('Submission', form.data?.name ?? 'Form', workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} form={form.data} />
      <h1>Submission{form.data ? ` to ${form.data.name}` : ''}</h1>
      <Loaded query={form} what="the form">
        {(loadedForm) => (
          <Loaded query={submission} what="the submission">
            {(loaded) => (
              <>
                <p className="muted">
                  Received <Time iso={loaded.created_at} /> {loaded.source === 'api_key' ? 'from a server (API key)' : 'from a browser'}
                  {loaded.status === 'spam' && <> · spam{loaded.spam_reason ? `: ${SPAM_REASON_WORDS[loaded.spam_reason]}` : ''}</>}
                </p>
                <SubmissionValues form={loadedForm} submission={loaded} />
                <SpamVerdict form={loadedForm} submission={loaded} />
                <p>
                  <Link to="/w/$workspaceId/forms/$formId/submissions" params={{ workspaceId: workspace.id, formId }}>
                    All submissions to {loadedForm.name}
                  </Link>
                </p>
              </>
            )}
          </Loaded>
        )}
      </Loaded>
    </>
  );
}
