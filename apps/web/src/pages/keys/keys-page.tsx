import { MAX_ACTIVE_KEYS, PAGE_LIMIT } from '@lfk/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { trpc } from '../../api/trpc.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { Empty, LoadedList } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useMemberNames } from '../../layout/people.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { CreateKeyDialog } from './create-key-dialog.tsx';
import { type ApiKey, KeyExpiry, KeyStatus, LastUsed, TriedToday } from './key-words.tsx';
import { NotAnOwner } from './not-an-owner.tsx';
import { RevokeKeyDialog } from './revoke-key-dialog.tsx';
import { RollKeyDialog } from './roll-key-dialog.tsx';

/** A workspace lists at most this many keys: ten active ones and the revoked ones kept for audit. */
const KEYS_LISTED = PAGE_LIMIT.max;

export function KeysPage() {
  const workspace = useWorkspace();
  usePageTitle('API keys', workspace.name);
  return (
    <>
      <h1>API keys</h1>
      {workspace.role === 'owner' ? <KeyManagement workspaceId={workspace.id} /> : <NotAnOwner workspaceId={workspace.id} />}
    </>
  );
}

function KeyManagement({ workspaceId }: { workspaceId: string }) {
  const keys = useQuery(trpc.apiKeys.list.queryOptions({ workspace_id: workspaceId, limit: KEYS_LISTED }));
  const { nameOf } = useMemberNames(workspaceId);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const active = keys.data?.data.filter((k) => k.status === 'active').length ?? 0;
  const columns: Column<ApiKey>[] = [
    {
      label: 'Name',
      typed: true,
      cell: (key) => (
        <Link to="/w/$workspaceId/keys/$keyId" params={{ workspaceId, keyId: key.id }}>
          {key.name ?? 'Unnamed'}
        </Link>
      ),
    },
    { label: 'Key', cell: (key) => <code className="nowrap">{key.prefix}…</code> },
    {
      label: 'Status',
      cell: (key) => (
        <>
          <KeyStatus apiKey={key} />
          {key.uses_today.refused > 0 && (
            <>
              <br />
              <TriedToday apiKey={key} />
            </>
          )}
        </>
      ),
    },
    { label: 'Expires', cell: (key) => <KeyExpiry apiKey={key} /> },
    {
      label: 'Created',
      cell: (key) => (
        <>
          <Time iso={key.created_at} />
          <br />
          <span className="muted">
            by{' '}
            <span className="person" title={nameOf(key.created_by)}>
              {nameOf(key.created_by)}
            </span>
          </span>
        </>
      ),
    },
    { label: 'Last used', cell: (key) => <LastUsed apiKey={key} /> },
    {
      label: 'Actions',
      labelHidden: true,
      cell: (key) =>
        key.status === 'active' && (
          <div className="row-actions">
            {!key.rolled_to && (
              <button type="button" className="secondary small" aria-label={`Roll ${key.name ?? key.prefix}`} onClick={() => setRolling(key)}>
                Roll
              </button>
            )}
            <button type="button" className="danger small" aria-label={`Revoke ${key.name ?? key.prefix}`} onClick={() => setRevoking(key)}>
              Revoke
            </button>
          </div>
        ),
    },
  ];

  return (
    <>
      <p className="lead">
        A key lets your own server-side code and agents create and manage this workspace's forms and send submissions to <code>api_key</code>-mode forms. Keep
        keys on servers: never put one in a web page or an app.
      </p>
      <div className="toolbar">
        <p className="count" aria-live="polite">
          {keys.data ? `${active} of ${MAX_ACTIVE_KEYS} active` : ''}
        </p>
        <button type="button" onClick={() => setCreating(true)}>
          Create key
        </button>
      </div>
      <LoadedList
        query={keys}
        what="API keys"
        empty={
          <Empty title="No API keys yet.">
            <p>Create one for each program that needs access, so you can revoke one without stopping the others.</p>
          </Empty>
        }
      >
        {(page) => <DataTable caption="API keys of this workspace, newest first" columns={columns} rows={page.data} rowKey={(key) => key.id} />}
      </LoadedList>
      <CreateKeyDialog workspaceId={workspaceId} open={creating} onClose={() => setCreating(false)} />
      <RollKeyDialog workspaceId={workspaceId} apiKey={rolling} onClose={() => setRolling(null)} />
      <RevokeKeyDialog workspaceId={workspaceId} apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}
