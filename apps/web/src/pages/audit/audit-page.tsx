import type { RouterOutputs } from '@lfk/client';
import { type AuditAction, PAGE_LIMIT } from '@lfk/vocabulary';
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

/** Each action as a sentence's verb (typed by the list of actions, so a new one cannot be forgotten). */
const ACTIONS: Record<AuditAction, string> = {
  'api_key.created': 'created an API key',
  'api_key.revoked': 'revoked an API key',
  'api_key.rolled': 'rolled an API key',
  'api_key.expired': 'expired an API key',
  'api_key.leaked': 'revoked a leaked API key',
  'api_key.updated': 'updated an API key',
  'form.created': 'created a form',
  'form.updated': 'updated a form',
  'form.claimed': 'claimed a form',
  'form.closed': 'closed a form',
  'form.reopened': 'reopened a form',
  'form.deleted': 'deleted a form',
  'submission.deleted': 'deleted a submission',
  'submission.marked_spam': 'marked a submission as spam',
  'submission.marked_not_spam': 'marked a submission as not spam',
  'submissions.deleted': 'deleted submissions',
  'submissions.expired': 'deleted submissions past their retention',
  'device_login.approved': 'approved a device sign-in',
  'device_login.denied': 'denied a device sign-in',
  'member.added': 'added a member',
  'member.removed': 'removed a member',
  'member.role_changed': "changed a member's role",
  'member.left': 'left the workspace',
  'invitation.created': 'invited someone',
  'invitation.resent': 'resent an invitation',
  'invitation.cancelled': 'cancelled an invitation',
  'project.created': 'created a project',
  'workspace.created': 'created the workspace',
  'workspace.renamed': 'renamed the workspace',
  'workspace.file_link_ttl_changed': 'changed how long file links live',
  'workspace.two_factor_requirement_changed': 'changed whether members need a second factor',
  'webhook.created': 'added a webhook',
  'webhook.updated': 'updated a webhook',
  'webhook.deleted': 'deleted a webhook',
  'webhook.disabled': 'disabled a webhook',
  'webhook.secret_rotated': "rotated a webhook's secret",
  'webhook.secret_ended': "stopped a webhook's rotated-away secret early",
  'webhook.recovered': 'sent past events to a webhook again',
  'webhook.secret_revealed': "revealed a webhook's secret",
  'webhook.delivery_retried': 'retried a webhook delivery',
  'webhook.delivery_discarded': 'discarded a webhook delivery',
  'two_factor.totp_enabled': 'set up an authenticator app',
  'two_factor.totp_disabled': 'turned their authenticator app off',
  'two_factor.passkey_added': 'added a passkey',
  'two_factor.passkey_removed': 'removed a passkey',
  'two_factor.recovery_codes_regenerated': 'made new recovery codes',
  'two_factor.recovery_code_used': 'signed in with a recovery code',
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
  const keys = useQuery(trpc.apiKeys.list.queryOptions({ workspace_id: workspaceId, limit: PAGE_LIMIT.max }));
  const forms = useQuery(trpc.forms.list.queryOptions({ workspace_id: workspaceId, limit: PAGE_LIMIT.max }));
  const { nameOf } = useMemberNames(workspaceId);
  const keyNames = new Map((keys.data?.data ?? []).map((k) => [k.id, k.name ? `key “${k.name}” (${k.prefix}…)` : `key ${k.prefix}…`]));
  const formNames = new Map((forms.data?.data ?? []).map((f) => [f.id, `form “${f.name}”`]));
  /** What an event was done to, by the name a person knows it by where there is one; its id otherwise. */
  const target = (event: AuditEvent) => {
    if (!event.target) return '—';
    const { type, id } = event.target;
    const data = event.data as Record<string, unknown>;
    const named =
      type === 'api_key'
        ? keyNames.get(id)
        : type === 'form'
          ? (formNames.get(id) ?? (text(data.name) ? `form “${text(data.name)}”` : undefined))
          : type === 'user'
            ? nameOf(id, event.target.email)
            : type === 'invitation'
              ? text(data.email)
              : type === 'webhook'
                ? text(data.host) && `webhook to ${text(data.host)}`
                : type === 'device_login'
                  ? text(data.device_name) && `“${text(data.device_name)}”`
                  : type === 'submission'
                    ? text(data.form_id) && `a submission to ${formNames.get(text(data.form_id)!) ?? 'a deleted form'}`
                    : undefined;
    return named ? (
      <span className="wrap-anywhere" title={id}>
        {named}
      </span>
    ) : (
      <code>{id}</code>
    );
  };
  const actor = (event: AuditEvent) => {
    switch (event.actor.type) {
      case 'user':
        return nameOf(event.actor.id, event.actor.email);
      case 'api_key':
        return keyNames.get(event.actor.id) ?? `key ${event.actor.id}`;
      case 'system':
        return 'lfk';
      case 'secret_scanner':
        return event.actor.id === 'github' ? 'GitHub secret scanning' : `secret scanner ${event.actor.id}`;
    }
  };

  const columns: Column<AuditEvent>[] = [
    { label: 'When', cell: (event) => <Time iso={event.created_at} /> },
    {
      label: 'Who',
      cell: (event) => (
        <>
          {actor(event)}
          {event.actor.type === 'api_key' && <span className="badge badge-key">key</span>}
          {event.actor.type !== 'user' && event.actor.type !== 'api_key' && <span className="badge badge-key">automatic</span>}
        </>
      ),
    },
    {
      label: 'What',
      cell: (event) => (
        <>
          {ACTIONS[event.action as AuditAction] ?? event.action}
          <EventDetail event={event} />
        </>
      ),
    },
    { label: 'On', cell: target },
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

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/** The one fact of an event worth a glance: where a leaked key was found, a roll's grace, how many were deleted. */
function EventDetail({ event }: { event: AuditEvent }) {
  if (event.action === 'api_key.leaked') {
    const url = text(event.data.url);
    return url ? <span className="muted where-from"> found at {url}</span> : null;
  }
  if (event.action === 'api_key.rolled' && typeof event.data.grace_seconds === 'number') {
    const revokesAt = text(event.data.revokes_at);
    return event.data.grace_seconds === 0 || !revokesAt ? (
      <span className="muted"> (old key stopped at once)</span>
    ) : (
      <span className="muted">
        {' '}
        (old key {Date.parse(revokesAt) > Date.now() ? 'stops' : 'stopped'} working <Time iso={revokesAt} />)
      </span>
    );
  }
  // How many, never which values: the audit log records counts only.
  if (event.action === 'submissions.deleted' || event.action === 'form.deleted') {
    const count = event.action === 'form.deleted' ? event.data.submissions : event.data.deleted;
    return <span className="muted"> ({count === 1 ? '1 submission' : `${count} submissions`})</span>;
  }
  if (event.action === 'device_login.approved' || event.action === 'device_login.denied') {
    return (
      <span className="muted where-from">
        {' '}
        (asked from {event.data.requested_ip ?? 'an unknown address'}, decided from {event.data.decided_from_ip})
      </span>
    );
  }
  if (event.action === 'api_key.updated') {
    const { name, allowed_ips: allowed } = event.data;
    const changes = [
      name && `renamed from “${name.from ?? 'unnamed'}” to “${name.to ?? 'unnamed'}”`,
      allowed && `allowed addresses ${allowed.to === null ? 'now any' : `now ${allowed.to.join(', ')}`}`,
      event.data.fields.includes('description') && 'description changed',
    ].filter(Boolean);
    return changes.length > 0 ? <span className="muted where-from"> ({changes.join('; ')})</span> : null;
  }
  if (event.action === 'member.role_changed')
    return (
      <span className="muted">
        {' '}
        (from {event.data.from} to {event.data.to})
      </span>
    );
  if (event.action === 'workspace.renamed')
    return (
      <span className="muted">
        {' '}
        (from “{event.data.from}” to “{event.data.to}”)
      </span>
    );
  if (event.action === 'submissions.expired') {
    return (
      <span className="muted">
        {' '}
        ({event.data.retention + event.data.spam} deleted: {event.data.retention} past retention, {event.data.spam} spam)
      </span>
    );
  }
  return null;
}
