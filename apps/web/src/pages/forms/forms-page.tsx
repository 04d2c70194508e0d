import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { trpc } from '../../api/trpc.ts';
import { Pager, useCursorPages } from '../../components/pager.tsx';
import { Empty, LoadError, Loading } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

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
      {forms.isPending ? (
        <Loading what="forms" />
      ) : forms.isError ? (
        <LoadError error={forms.error} retry={() => forms.refetch()} />
      ) : forms.data.data.length === 0 ? (
        <Empty title="No forms in this workspace yet.">
          <p>
            Create one here, make one from your code with an API key, or claim a form you made without an account.
          </p>
        </Empty>
      ) : (
        <>
          <table className="table">
            <caption className="visually-hidden">Forms of this workspace, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Submissions from</th>
                <th scope="col">Fields</th>
                <th scope="col">Notify email</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Links</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {forms.data.data.map((form) => (
                <tr key={form.id}>
                  <td data-label="Name">
                    <Link to="/w/$workspaceId/forms/$formId" params={{ ...params, formId: form.id }}>
                      {form.name}
                    </Link>
                  </td>
                  <td data-label="Submissions from">{form.submission_mode === 'api_key' ? 'Servers (API key)' : 'Browsers'}</td>
                  <td data-label="Fields">{form.schema.length}</td>
                  <td data-label="Notify email">
                    {form.notify_email ? (
                      <>
                        {form.notify_email}{' '}
                        <span className={`badge ${form.notify_email_verified ? 'badge-active' : 'badge-pending'}`}>
                          {form.notify_email_verified ? 'Verified' : 'Not verified'}
                        </span>
                      </>
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                  <td data-label="Created">
                    <Time iso={form.created_at} />
                  </td>
                  <td data-label="Links">
                    <Link to="/w/$workspaceId/forms/$formId/submissions" params={{ ...params, formId: form.id }} aria-label={`Submissions of ${form.name}`}>
                      Submissions
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager label="Pages of forms" pageNumber={pages.pageNumber} nextCursor={forms.data.next_cursor} onOlder={pages.older} onNewer={pages.newer} />
        </>
      )}
    </>
  );
}
