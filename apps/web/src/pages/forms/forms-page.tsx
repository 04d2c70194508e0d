import type { RouterOutputs } from '@lfk/client';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { trpc } from '../../api/trpc.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { Pager, useCursorPages } from '../../components/pager.tsx';
import { Empty, LoadedList } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

type Form = RouterOutputs['forms']['list']['data'][number];

const PAGE_SIZE = 25;

export function FormsPage() {
  const workspace = useWorkspace();
  usePageTitle('Forms', workspace.name);
  const pages = useCursorPages();
  const forms = useQuery(trpc.forms.list.queryOptions({ workspace_id: workspace.id, limit: PAGE_SIZE, cursor: pages.cursor }));
  const params = { workspaceId: workspace.id };
  return (
    <>
      <div className="page-header">
        <h1>Forms</h1>
        <div className="actions">
          <Link className="button secondary" to="/w/$workspaceId/forms/claim" params={params}>
            Claim a form
          </Link>
          <Link className="button" to="/w/$workspaceId/forms/new" params={params}>
            Create form
          </Link>
        </div>
      </div>
      <LoadedList
        query={forms}
        what="forms"
        empty={
          <Empty title="No forms in this workspace yet.">
            <p>Create one here, make one from your code with an API key, or claim a form you made without an account.</p>
          </Empty>
        }
      >
        {(page) => (
          <>
            <DataTable caption="Forms of this workspace, newest first" columns={columns(workspace.id)} rows={page.data} rowKey={(form) => form.id} />
            <Pager label="Pages of forms" pages={pages} nextCursor={page.next_cursor} />
          </>
        )}
      </LoadedList>
    </>
  );
}

function columns(workspaceId: string): Column<Form>[] {
  const params = (form: Form) => ({ workspaceId, formId: form.id });
  return [
    {
      label: 'Name',
      typed: true,
      cell: (form) => (
        <Link to="/w/$workspaceId/forms/$formId" params={params(form)}>
          {form.name}
        </Link>
      ),
    },
    {
      label: 'Submissions',
      cell: (form) => (
        <Link to="/w/$workspaceId/forms/$formId/submissions" params={params(form)} aria-label={`${form.submission_count} submissions to ${form.name}`}>
          {form.submission_count}
        </Link>
      ),
    },
    {
      label: 'Drafts',
      cell: (form) =>
        form.drafts.enabled || form.draft_count > 0 ? (
          <Link to="/w/$workspaceId/forms/$formId/drafts" params={params(form)} aria-label={`${form.draft_count} drafts of ${form.name}`}>
            {form.draft_count}
          </Link>
        ) : (
          <span className="muted">Off</span>
        ),
    },
    { label: 'Last submission', cell: (form) => (form.last_submission_at ? <Time iso={form.last_submission_at} /> : <span className="muted">None yet</span>) },
    {
      label: 'Submissions from',
      cell: (form) => (
        <>
          {form.submission_mode === 'api_key' ? 'Servers (API key)' : 'Browsers'}
          {form.closed && (
            <>
              {' '}
              <span className="badge badge-pending">Closed</span>
            </>
          )}
        </>
      ),
    },
    {
      label: 'Notification emails',
      cell: (form) =>
        form.notify_emails.length > 0 ? (
          <ul className="plain-list">
            {form.notify_emails.map((address) => (
              <li key={address}>
                {address}{' '}
                <span className={`badge ${form.verified_notify_emails.includes(address) ? 'badge-active' : 'badge-pending'}`}>
                  {form.verified_notify_emails.includes(address) ? 'Verified' : 'Not verified'}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">None</span>
        ),
    },
    { label: 'Created', cell: (form) => <Time iso={form.created_at} /> },
  ];
}
