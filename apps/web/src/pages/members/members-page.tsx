import { zodResolver } from '@hookform/resolvers/zod';
import type { RouterOutputs } from '@lfk/api';
import { memberAddInput, workspaceRenameInput } from '@lfk/api/schemas';
import { ROLES } from '@lfk/db/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
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

const ROLE_NAMES = { owner: 'Owner', member: 'Member' } as const;

export function MembersPage() {
  const workspace = useWorkspace();
  usePageTitle('Members', workspace.name);
  const { members } = useMemberNames(workspace.id);
  const [removing, setRemoving] = useState<Member | null>(null);
  const isOwner = workspace.role === 'owner';
  const roles = useRoleChange(workspace.id);
  const columns: Column<Member>[] = [
    { label: 'Email', cell: (m) => m.email },
    { label: 'Name', cell: (m) => m.name ?? <span className="muted">—</span> },
    {
      label: 'Role',
      cell: (m) =>
        isOwner ? (
          <select
            aria-label={`Role of ${m.email}`}
            value={m.role}
            disabled={roles.pending}
            onChange={(event) => roles.change(m, event.target.value as Member['role'])}
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
        {isOwner ? '' : ' Only owners can add or remove people.'}
      </p>
      <Loaded query={members} what="members">
        {(page) => <DataTable caption="Members of this workspace" columns={columns} rows={page.data} rowKey={(m) => m.user_id} />}
      </Loaded>
      <ProblemAlert problem={roles.problem} explain={explainRoleChange} />
      <p role="status">{roles.said}</p>
      {isOwner && <AddMemberForm workspaceId={workspace.id} />}
      {isOwner && <RenameWorkspaceForm workspaceId={workspace.id} name={workspace.name} />}
      <LeaveWorkspace workspaceId={workspace.id} name={workspace.name} />
      <RemoveMemberDialog workspaceId={workspace.id} member={removing} onClose={() => setRemoving(null)} />
    </>
  );
}

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

const renameFields = workspaceRenameInput.omit({ workspace_id: true });

function RenameWorkspaceForm({ workspaceId, name }: { workspaceId: string; name: string }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const form = useForm({ resolver: zodResolver(renameFields), defaultValues: { name } });
  const problem = useFormProblem(['name'], form.setError);
  const rename = useMutation({
    ...trpc.workspaces.rename.mutationOptions(),
    onSuccess: async () => {
      setSaved(true);
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
    },
    onError: problem.report,
  });
  return (
    <section aria-labelledby="rename-title" className="card">
      <h2 id="rename-title">Workspace name</h2>
      <form
        className="inline-form"
        onSubmit={form.handleSubmit((input) => {
          setSaved(false);
          problem.clear();
          rename.mutate({ ...input, workspace_id: workspaceId });
        })}
        noValidate
      >
        <TextField form={form} name="name" label="Name" autoComplete="off" />
        <button type="submit" disabled={rename.isPending}>
          Rename
        </button>
      </form>
      <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} />
      <p role="status">{saved ? 'Workspace renamed.' : ''}</p>
    </section>
  );
}

/** Leaving: anyone may, but the last owner, who is told what to do first. */
function LeaveWorkspace({ workspaceId, name }: { workspaceId: string; name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const leave = useMutation({
    ...trpc.members.leave.mutationOptions(),
    onSuccess: async () => {
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
      await navigate({ to: '/' });
    },
  });
  return (
    <section aria-labelledby="leave-title" className="card">
      <h2 id="leave-title">Leave this workspace</h2>
      <p>You lose access to its forms and submissions. Keys you created keep working until an owner revokes them.</p>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        Leave workspace
      </button>
      <ConfirmDialog
        open={open}
        title={`Leave “${name}”?`}
        confirmLabel="Leave workspace"
        onConfirm={() => leave.mutate({ workspace_id: workspaceId })}
        onClose={() => {
          setOpen(false);
          leave.reset();
        }}
        pending={leave.isPending}
        error={leave.error}
        explain={explainRoleChange}
      >
        <p>To come back, an owner must add you again.</p>
      </ConfirmDialog>
    </section>
  );
}

const addFields = memberAddInput.omit({ workspace_id: true });

function AddMemberForm({ workspaceId }: { workspaceId: string }) {
  const queryClient = useQueryClient();
  const roleId = useId();
  const [added, setAdded] = useState<string | null>(null);
  const form = useForm({ resolver: zodResolver(addFields), defaultValues: { email: '', role: 'member' as const } });
  const problem = useFormProblem(['email', 'role'], form.setError, { user_not_found: 'email', already_member: 'email' });
  const add = useMutation({
    ...trpc.members.add.mutationOptions(),
    onSuccess: async (member) => {
      form.reset();
      setAdded(`${member.email} is now a ${member.role} of this workspace.`);
      await queryClient.invalidateQueries(trpc.members.list.pathFilter());
    },
    onError: problem.report,
  });
  return (
    <section aria-labelledby="add-member-title" className="card">
      <h2 id="add-member-title">Add a member</h2>
      <p className="hint">They need an lfk account already: ask them to sign up first.</p>
      <form className="inline-form" onSubmit={form.handleSubmit((input) => {
        setAdded(null);
        add.mutate({ ...input, workspace_id: workspaceId });
      })} noValidate>
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
        <button type="submit" disabled={add.isPending}>
          Add member
        </button>
      </form>
      <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} />
      <p role="status">{added ?? ''}</p>
    </section>
  );
}

function explainRemoval(problem: Problem) {
  if (problem.code === 'last_owner') return 'Make someone else an owner first (add them as an owner), then remove this one.';
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
