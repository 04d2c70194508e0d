import type { RouterOutputs } from '@lfk/api';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { trpc } from '../../api/trpc.ts';
import { Pager, useCursorPages } from '../../components/pager.tsx';
import { Empty, Loaded, LoadedList } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { EmbedSnippet } from '../forms/embed-snippet.tsx';
import { FormsBreadcrumb } from '../forms/forms-subpage.tsx';
import type { Form } from '../forms/form-values.ts';

type Submission = RouterOutputs['submissions']['list']['data'][number];

const PAGE_SIZE = 20;

export function SubmissionsPage() {
  const workspace = useWorkspace();
  const { formId } = useParams({ from: '/w/$workspaceId/forms/$formId/submissions' });
  const form = useQuery(trpc.forms.get.queryOptions({ form_id: formId }));
  usePageTitle('Submissions', form.data?.name ?? 'Form', workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} form={form.data} />
      <h1>Submissions{form.data ? ` to ${form.data.name}` : ''}</h1>
      <Loaded query={form} what="the form">
        {(loaded) => <SubmissionList form={loaded} />}
      </Loaded>
    </>
  );
}

function SubmissionList({ form }: { form: Form }) {
  const pages = useCursorPages();
  const submissions = useQuery(trpc.submissions.list.queryOptions({ form_id: form.id, limit: PAGE_SIZE, cursor: pages.cursor }));
  return (
    <LoadedList
      query={submissions}
      what="submissions"
      empty={
        <Empty title="No submissions yet.">
          <p>They appear here, newest first, as soon as they arrive.</p>
          <EmbedSnippet form={form} />
        </Empty>
      }
    >
      {(page) => (
        <>
          <div className="toolbar">
            <p className="muted">Newest first. Open one to read every field.</p>
            <button type="button" className="secondary" onClick={() => submissions.refetch()}>
              Refresh
            </button>
          </div>
          <ol className="submissions">
            {page.data.map((submission) => (
              <li key={submission.id}>
                <SubmissionCard form={form} submission={submission} />
              </li>
            ))}
          </ol>
          <Pager label="Pages of submissions" pages={pages} nextCursor={page.next_cursor} />
        </>
      )}
    </LoadedList>
  );
}

const show = (value: string | number | boolean | undefined) =>
  value === undefined ? '—' : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);

/** One submission: a line to recognise it by, and every value in full when opened. */
function SubmissionCard({ form, submission }: { form: Form; submission: Submission }) {
  const labels = new Map(form.schema.map((f) => [f.name, f.label ?? f.name]));
  // Fields the form no longer has are still shown: the submission keeps what was sent.
  const names = [...new Set([...form.schema.map((f) => f.name), ...Object.keys(submission.data)])];
  const preview = names
    .map((name) => submission.data[name])
    .filter((v) => v !== undefined && v !== '')
    .slice(0, 2)
    .map(show)
    .join(' · ');
  return (
    <details className="submission">
      <summary>
        <Time iso={submission.created_at} /> <span className="preview">{preview}</span>{' '}
        <span className="muted">via {submission.source === 'api_key' ? 'API key' : 'browser'}</span>
      </summary>
      <dl>
        {names.map((name) => (
          <div key={name}>
            <dt>{labels.get(name) ?? name}</dt>
            <dd>{show(submission.data[name])}</dd>
          </div>
        ))}
        <div>
          <dt>Submission id</dt>
          <dd>
            <code>{submission.id}</code>
          </dd>
        </div>
      </dl>
    </details>
  );
}
