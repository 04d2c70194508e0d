import type { RouterOutputs } from '@lfk/api';
import { useQuery } from '@tanstack/react-query';
import { trpc } from '../../api/trpc.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { Pager, useCursorPages } from '../../components/pager.tsx';
import { Empty, LoadedList } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useMemberNames } from '../../layout/people.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

type AuditEvent = RouterOutputs['auditEvents']['list']['data'][number];

const PAGE_SIZE = 50;

/** Each action as a sentence's verb. */
const ACTIONS: Record<string, string> = {
  'api_key.created': 'created an API key',
  'api_key.revoked': 'revoked an API key',
  'form.created': 'created a form',
  'form.updated': 'updated a form',
  'form.claimed': 'claimed a form',
  'member.added': 'added a member',
  'member.removed': 'removed a member',
  'project.created': 'created a project',
  'workspace.created': 'created the workspace',
};

export function AuditPage() {
  const workspace = useWorkspace();
  usePageTitle('Audit log', workspace.name);
  return (
    <>
      <h1>Audit log</h1>
      {workspace.role === 'owner' ? (
        <AuditLog workspaceId={workspace.id} />
      ) : (
        <div className="notice" role="note">
          <p>Only owners of this workspace can read its audit log: it records key and member changes.</p>
        </div>
      )}
    </>
  );
}

function AuditLog({ workspaceId }: { workspaceId: string }) {
  const pages = useCursorPages();
  const events = useQuery(trpc.auditEvents.list.queryOptions({ workspace_id: workspaceId, limit: PAGE_SIZE, cursor: pages.cursor }));
  const keys = useQuery(trpc.apiKeys.list.queryOptions({ workspace_id: workspaceId, limit: 100 }));
  const { nameOf } = useMemberNames(workspaceId);
  const keyNames = new Map((keys.data?.data ?? []).map((k) => [k.id, k.name ? `key “${k.name}” (${k.prefix}…)` : `key ${k.prefix}…`]));
  const actor = (event: AuditEvent) => (event.actor.type === 'user' ? nameOf(event.actor.id) : (keyNames.get(event.actor.id) ?? `key ${event.actor.id}`));

  const columns: Column<AuditEvent>[] = [
    { label: 'When', cell: (event) => <Time iso={event.created_at} /> },
    {
      label: 'Who',
      cell: (event) => (
        <>
          {actor(event)}
          {event.actor.type === 'api_key' && <span className="badge badge-key">key</span>}
        </>
      ),
    },
    { label: 'What', cell: (event) => ACTIONS[event.action] ?? event.action },
    { label: 'On', cell: (event) => (event.target ? <code>{event.target.id}</code> : '—') },
  ];
  return (
    <LoadedList query={events} what="the audit log" empty={<Empty title="Nothing has happened in this workspace yet." />}>
      {(page) => (
        <>
          <DataTable caption="Audit events, newest first" columns={columns} rows={page.data} rowKey={(event) => event.id} />
          <Pager label="Pages of the audit log" pages={pages} nextCursor={page.next_cursor} />
        </>
      )}
    </LoadedList>
  );
}
