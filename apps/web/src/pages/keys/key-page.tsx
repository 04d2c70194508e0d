import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { trpc } from '../../api/trpc.ts';
import { Loaded } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useMemberNames } from '../../layout/people.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { EditKeyDialog } from './edit-key-dialog.tsx';
import { allowedFrom, type ApiKey, KeyExpiry, KeyStatus, TriedToday } from './key-words.tsx';
import { NotAnOwner } from './not-an-owner.tsx';
import { RevokeKeyDialog } from './revoke-key-dialog.tsx';
import { RollKeyDialog } from './roll-key-dialog.tsx';
import { UsageChart } from './usage-chart.tsx';

/** The days of usage the page charts (the API keeps more: up to its `API_KEY_USAGE_DAYS.max`). */
const USAGE_DAYS = 30;

/** One key: its state, where it may be and was last used from, what replaced it, its daily requests accepted and refused; Edit, Roll and Revoke. */
export function KeyPage() {
  const workspace = useWorkspace();
  const { keyId } = useParams({ from: '/w/$workspaceId/keys/$keyId' });
  const key = useQuery({ ...trpc.apiKeys.get.queryOptions({ workspace_id: workspace.id, key_id: keyId }), enabled: workspace.role === 'owner' });
  usePageTitle(key.data ? (key.data.name ?? key.data.prefix) : 'API key', workspace.name);
  return (
    <>
      <p className="breadcrumb">
        <Link to="/w/$workspaceId/keys" params={{ workspaceId: workspace.id }}>
          API keys
        </Link>
      </p>
      {workspace.role === 'owner' ? (
        <Loaded query={key} what="the key">
          {(apiKey) => <KeyDetails workspaceId={workspace.id} apiKey={apiKey} />}
        </Loaded>
      ) : (
        <>
          <h1>API key</h1>
          <NotAnOwner workspaceId={workspace.id} />
        </>
      )}
    </>
  );
}

function KeyDetails({ workspaceId, apiKey }: { workspaceId: string; apiKey: ApiKey }) {
  const { nameOf } = useMemberNames(workspaceId);
  const usage = useQuery(trpc.apiKeys.usage.queryOptions({ workspace_id: workspaceId, key_id: apiKey.id, days: USAGE_DAYS }));
  const [rolling, setRolling] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const [editing, setEditing] = useState(false);
  const active = apiKey.status === 'active';
  return (
    <>
      <div className="page-header">
        <h1>{apiKey.name ?? 'Unnamed key'}</h1>
        <div className="row-actions">
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
          {active && !apiKey.rolled_to && (
            <button type="button" className="secondary" onClick={() => setRolling(true)}>
              Roll key
            </button>
          )}
          {active && (
            <button type="button" className="danger" onClick={() => setRevoking(true)}>
              Revoke key
            </button>
          )}
        </div>
      </div>
      <p className="muted">
        <code>{apiKey.prefix}…</code> · <code>{apiKey.id}</code>
      </p>
      {apiKey.description && <p className="key-description">{apiKey.description}</p>}
      <dl className="facts">
        <Fact label="Status">
          <KeyStatus apiKey={apiKey} /> <TriedToday apiKey={apiKey} />
        </Fact>
        <Fact label="Allowed from" className="where-from">
          {allowedFrom(apiKey)}
        </Fact>
        {apiKey.rolled_to && (
          <Fact label="Replaced by">
            <Link to="/w/$workspaceId/keys/$keyId" params={{ workspaceId, keyId: apiKey.rolled_to }}>
              <code>{apiKey.rolled_to}</code>
            </Link>
          </Fact>
        )}
        <Fact label="Expires">
          <KeyExpiry apiKey={apiKey} />
        </Fact>
        <Fact label="Created">
          <Time iso={apiKey.created_at} /> by {nameOf(apiKey.created_by)}
        </Fact>
        <Fact label="Last used">
          <Time iso={apiKey.last_used_at} never="Never" />
        </Fact>
        <Fact label="Last used from">{apiKey.last_used_ip ?? '—'}</Fact>
        <Fact label="Last program" className="where-from">
          {apiKey.last_used_user_agent ?? '—'}
        </Fact>
      </dl>
      <section aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <p className="hint">Counted as requests arrive and saved every few seconds, so the last moments may not show yet.</p>
        <Loaded query={usage} what="the key's usage">
          {(page) => <UsageChart days={page.data} />}
        </Loaded>
      </section>
      <EditKeyDialog workspaceId={workspaceId} apiKey={editing ? apiKey : null} onClose={() => setEditing(false)} />
      <RollKeyDialog workspaceId={workspaceId} apiKey={rolling ? apiKey : null} onClose={() => setRolling(false)} />
      <RevokeKeyDialog workspaceId={workspaceId} apiKey={revoking ? apiKey : null} onClose={() => setRevoking(false)} />
    </>
  );
}

/** One row of a key's facts: a label and its value. */
function Fact({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
