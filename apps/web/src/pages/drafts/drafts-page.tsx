import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { trpc } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { Pager, useCursorPages } from '../../components/pager.tsx';
import { Empty, Loaded, LoadedList } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import type { Form } from '../forms/form-values.ts';
import { FormsBreadcrumb } from '../forms/forms-subpage.tsx';

const PAGE_SIZE = 25;

export function DraftsPage() {
  const workspace = useWorkspace();
  const { formId } = useParams({ from: '/w/$workspaceId/forms/$formId/drafts' });
  const form = useQuery(trpc.forms.get.queryOptions({ form_id: formId }));
  usePageTitle('Drafts', form.data?.name ?? 'Form', workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} form={form.data} />
      <h1>Drafts{form.data ? ` of ${form.data.name}` : ''}</h1>
      <Loaded query={form} what="the form">
        {(loaded) => <Drafts form={loaded} />}
      </Loaded>
    </>
  );
}

/** What visitors began on the form's page and have not sent: read and deleted apart from submissions. */
function Drafts({ form }: { form: Form }) {
  const queryClient = useQueryClient();
  const pages = useCursorPages();
  const drafts = useQuery(trpc.drafts.list.queryOptions({ form_id: form.id, limit: PAGE_SIZE, cursor: pages.cursor }));
  const [deleting, setDeleting] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const remove = useMutation({
    ...trpc.drafts.delete.mutationOptions(),
    onSuccess: () => {
      setDeleting(null);
      setSaid('Deleted the draft.');
      void queryClient.invalidateQueries(trpc.drafts.list.pathFilter());
      void queryClient.invalidateQueries(trpc.forms.list.pathFilter());
    },
  });
  const fields = form.schema.filter((field) => field.type !== 'file' && !field.private);
  type Draft = NonNullable<typeof drafts.data>['data'][number];
  const columns: Column<Draft>[] = [
    { label: 'Saved', cell: (draft) => <Time iso={draft.updated_at} /> },
    ...fields.map(
      (field): Column<Draft> => ({
        label: field.label ?? field.name,
        typed: true,
        cell: (draft) => {
          const value = draft.data[field.name];
          return value === undefined ? <span className="muted">—</span> : typeof value === 'boolean' ? value ? 'Yes' : 'No' : value;
        },
      }),
    ),
    { label: 'Deleted', cell: (draft) => <Time iso={draft.expires_at} /> },
    {
      label: 'Actions',
      labelHidden: true,
      cell: (draft) => (
        <button
          type="button"
          className="link danger-link"
          onClick={() => setDeleting(draft.id)}
          aria-label={`Delete the draft saved ${new Date(draft.updated_at).toLocaleString()}`}
        >
          Delete
        </button>
      ),
    },
  ];
  return (
    <>
      <p className="muted">
        {form.drafts.enabled
          ? `Answers visitors began on the form's page and have not sent. Each is deleted ${form.drafts.ttl_days} days after its last save, or when it is sent.`
          : 'This form keeps no new drafts: turn them on in its settings, under Drafts.'}
      </p>
      <p role="status" className="muted">
        {said}
      </p>
      <LoadedList
        query={drafts}
        what="drafts"
        empty={
          <Empty title="No drafts.">
            <p>With drafts on and the browser kit on your page, what visitors type and have not sent yet shows here.</p>
          </Empty>
        }
      >
        {(page) => (
          <>
            <DataTable caption="Drafts, newest first" columns={columns} rows={page.data} rowKey={(draft) => draft.id} />
            <Pager label="Pages of drafts" pages={pages} nextCursor={page.next_cursor} />
          </>
        )}
      </LoadedList>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this draft?"
        confirmLabel="Delete"
        onConfirm={() => deleting && remove.mutate({ form_id: form.id, ids: [deleting] })}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>The visitor who comes back finds a blank form. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
