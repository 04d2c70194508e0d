import { zodResolver } from '@hookform/resolvers/zod';
import { invitationCreateInput } from '@lfk/api/schemas';
import type { RouterOutputs } from '@lfk/client';
import { ROLES } from '@lfk/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { type Problem, problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Loaded } from '../../components/states.tsx';
import { TextField } from '../../components/text-field.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useMemberNames } from '../../layout/people.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

type Member = RouterOutputs['members']['list']['data'][number];
type Invitation = RouterOutputs['invitations']['list']['data'][number];

const ROLE_NAMES = { owner: 'Owner', member: 'Member' } as const;

export function MembersPage() {
  const workspace = useWorkspace();
  usePageTitle('Members', workspace.name);
  const { members } = useMemberNames(workspace.id);
  const [removing, setRemoving] = useState<Member | null>(null);
  // Making someone an owner hands them the workspace: asked first.
  const [promoting, setPromoting] = useState<Member | null>(null);
  const isOwner = workspace.role === 'owner';
  const roles = useRoleChange(workspace.id);
  const columns: Column<Member>[] = [
    { label: 'Email', typed: true, cell: (m) => m.email },
    { label: 'Name', typed: true, cell: (m) => m.name ?? <span className="muted">—</span> },
    {
      label: 'Role',
      cell: (m) =>
        isOwner ? (
          <select
            aria-label={`Role of ${m.email}`}
            value={m.role}
            disabled={roles.pending}
            onChange={(event) => {
              const role = event.target.value as Member['role'];
              if (role === 'owner') setPromoting(m);
              else roles.change(m, role);
            }}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_NAMES[role]}
              </option>
            ))}
          </select>
        ) : (
          ROLE_NAMES[m.role]
        ),
    },
    { label: 'Added', cell: (m) => <Time iso={m.created_at} /> },
  ];
  if (isOwner) {
    columns.push({
      label: 'Actions',
      labelHidden: true,
      cell: (m) => (
        <button type="button" className="danger small" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
          Remove
        </button>
      ),
    });
  }
  return (
    <>
      <h1>Members</h1>
      <p className="lead">
        Owners manage API keys, members and the audit log; members work with forms and read submissions.
        {isOwner ? '' : ' Only owners can invite or remove people.'}
      </p>
      <Loaded query={members} what="members">
        {(page) => <DataTable caption="Members of this workspace" columns={columns} rows={page.data} rowKey={(m) => m.user_id} />}
      </Loaded>
      <ProblemAlert problem={roles.problem} explain={explainRoleChange} />
      <p role="status">{roles.said}</p>
      {isOwner && <InviteForm workspaceId={workspace.id} />}
      <PendingInvitations workspaceId={workspace.id} isOwner={isOwner} />
      <RemoveMemberDialog workspaceId={workspace.id} member={removing} onClose={() => setRemoving(null)} />
      <ConfirmDialog
        open={promoting !== null}
        title={`Make ${promoting?.email ?? ''} an owner?`}
        confirmLabel="Make owner"
        onConfirm={() => {
          if (promoting) roles.change(promoting, 'owner');
          setPromoting(null);
        }}
        onClose={() => setPromoting(null)}
        pending={roles.pending}
        error={null}
      >
        <p>{OWNER_POWERS} Make them an owner only if you would hand them all of that.</p>
      </ConfirmDialog>
    </>
  );
}

/** What making someone an owner hands them: said before either way of doing it. */
const OWNER_POWERS =
  'Owners create and revoke API keys, invite and remove people (other owners too), read the audit log, and can delete the workspace with everything in it.';

function explainRoleChange(problem: Problem) {
  if (problem.code === 'last_owner') return 'A workspace keeps at least one owner: make someone else an owner first.';
  return undefined;
}

/** Changing a member's role from the table: one change at a time, said when done, refused with why. */
function useRoleChange(workspaceId: string) {
  const queryClient = useQueryClient();
  const [said, setSaid] = useState('');
  const setRole = useMutation({
    ...trpc.members.setRole.mutationOptions(),
    onSuccess: async (member) => {
      setSaid(`${member.email} is now ${member.role === 'owner' ? 'an owner' : 'a member'}.`);
      await queryClient.invalidateQueries(trpc.members.list.pathFilter());
      // Stepping down changes what this person may do here: the page reads the role again.
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
    },
  });
  return {
    said,
    pending: setRole.isPending,
    problem: setRole.error ? problemOf(setRole.error) : null,
    change(member: Member, role: Member['role']) {
      setSaid('');
      setRole.reset();
      setRole.mutate({ workspace_id: workspaceId, user_id: member.user_id, role });
    },
  };
}

const inviteFields = invitationCreateInput.omit({ workspace_id: true });

/** Inviting by address: nobody joins until they accept the emailed link, and the answer never says whether the address has an account. */
function InviteForm({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const roleId = useId();
  const [sent, setSent] = useState<string | null>(null);
  /** An invitation as an owner, waiting for the inviter to say yes. */
  const [asking, setAsking] = useState<{ email: string; role: 'owner' } | null>(null);
  const form = useForm({ resolver: zodResolver(inviteFields), defaultValues: { email: '', role: 'member' as const } });
  const problem = useFormProblem(['email', 'role'], form.setError);
  const invite = useMutation({
    ...trpc.invitations.create.mutationOptions(),
    onSuccess: async (invitation) => {
      form.reset();
      setSent(`Invitation sent to ${invitation.email}. They join when they accept it.`);
      await queryClient.invalidateQueries(trpc.invitations.list.pathFilter());
    },
    onError: problem.report,
  });
  return (
    <section aria-labelledby="invite-title" className="card">
      <h2 id="invite-title">Invite someone</h2>
      <p className="hint">They get an email with a link that works for 7 days; they sign in, or sign up, with that address to join.</p>
      <form
        className="inline-form"
        onSubmit={form.handleSubmit((input) => {
          setSent(null);
          if (input.role === 'owner') setAsking({ email: input.email, role: 'owner' });
          else invite.mutate({ ...input, workspace_id: workspaceId });
        })}
        noValidate
      >
        <TextField form={form} name="email" label="Email" type="email" autoComplete="off" />
        <div className="field">
          <label htmlFor={roleId}>Role</label>
          <select id={roleId} {...form.register('role')}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_NAMES[role]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={invite.isPending}>
          Send invitation
        </button>
      </form>
      <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} />
      <p role="status">{sent ?? ''}</p>
      <ConfirmDialog
        open={asking !== null}
        title={`Invite ${asking?.email ?? ''} as an owner?`}
        confirmLabel="Invite as owner"
        onConfirm={() => {
          if (asking) invite.mutate({ ...asking, workspace_id: workspaceId });
          setAsking(null);
        }}
        onClose={() => setAsking(null)}
        pending={invite.isPending}
        error={null}
      >
        <p>{OWNER_POWERS} Invite them as an owner only if you would hand them all of that; a member can be made an owner later.</p>
      </ConfirmDialog>
    </section>
  );
}

/** The invitations waiting for an answer; owners resend or cancel them. */
function PendingInvitations({ workspaceId, isOwner }: { workspaceId: string; isOwner: boolean }) {
  const queryClient = useQueryClient();
  const invitations = useQuery(trpc.invitations.list.queryOptions({ workspace_id: workspaceId, limit: 100 }));
  const [said, setSaid] = useState('');
  const refresh = () => queryClient.invalidateQueries(trpc.invitations.list.pathFilter());
  const resend = useMutation({
    ...trpc.invitations.resend.mutationOptions(),
    onSuccess: async (invitation) => {
      setSaid(`Sent ${invitation.email} a new link.`);
      await refresh();
    },
  });
  const cancel = useMutation({
    ...trpc.invitations.cancel.mutationOptions(),
    onSuccess: async () => {
      setSaid('Invitation cancelled.');
      await refresh();
    },
  });
  const columns: Column<Invitation>[] = [
    { label: 'Email', typed: true, cell: (i) => i.email },
    { label: 'Role', cell: (i) => ROLE_NAMES[i.role] },
    { label: 'Link expires', cell: (i) => <Time iso={i.expires_at} /> },
  ];
  if (isOwner) {
    columns.push({
      label: 'Actions',
      labelHidden: true,
      cell: (i) => (
        <span className="row-actions">
          <button
            type="button"
            className="secondary small"
            aria-label={`Resend the invitation to ${i.email}`}
            disabled={resend.isPending}
            onClick={() => {
              setSaid('');
              resend.mutate({ workspace_id: workspaceId, invitation_id: i.id });
            }}
          >
            Resend
          </button>
          <button
            type="button"
            className="danger small"
            aria-label={`Cancel the invitation to ${i.email}`}
            disabled={cancel.isPending}
            onClick={() => {
              setSaid('');
              cancel.mutate({ workspace_id: workspaceId, invitation_id: i.id });
            }}
          >
            Cancel
          </button>
        </span>
      ),
    });
  }
  const error = resend.error ?? cancel.error;
  return (
    <section aria-labelledby="invitations-title" className="card">
      <h2 id="invitations-title">Pending invitations</h2>
      <Loaded query={invitations} what="invitations">
        {(page) =>
          page.data.length === 0 ? (
            <p className="muted">No invitation is waiting for an answer.</p>
          ) : (
            <DataTable caption="Invitations waiting for an answer" columns={columns} rows={page.data} rowKey={(i) => i.id} />
          )
        }
      </Loaded>
      <ProblemAlert problem={error ? problemOf(error) : null} />
      <p role="status">{said}</p>
    </section>
  );
}

function explainRemoval(problem: Problem) {
  if (problem.code === 'last_owner') return 'Make someone else an owner first (change their role), then remove this one.';
  return undefined;
}

function RemoveMemberDialog({ workspaceId, member, onClose }: { workspaceId: string; member: Member | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    ...trpc.members.remove.mutationOptions(),
    onSuccess: async () => {
      await queryClient.invalidateQueries(trpc.members.list.pathFilter());
      // Removing oneself leaves the workspace: the switcher must forget it.
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
      close();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={member !== null}
      title={`Remove ${member?.email ?? ''}?`}
      confirmLabel="Remove member"
      onConfirm={() => member && remove.mutate({ workspace_id: workspaceId, user_id: member.user_id })}
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
      explain={explainRemoval}
    >
      <p>They lose access to this workspace's forms and submissions at once. Keys they created keep working until revoked.</p>
    </ConfirmDialog>
  );
}
