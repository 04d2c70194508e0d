import { zodResolver } from '@hookform/resolvers/zod';
import type { RouterOutputs } from '@lfk/api';
import { memberAddInput } from '@lfk/api/schemas';
import { ROLES } from '@lfk/db/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { type Problem, problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { LoadError, Loading } from '../../components/states.tsx';
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
  return (
    <>
      <h1>Members</h1>
      <p className="lead">
        Owners manage API keys, members and the audit log; members work with forms and read submissions.
        {isOwner ? '' : ' Only owners can add or remove people.'}
      </p>
      {members.isPending ? (
        <Loading what="members" />
      ) : members.isError ? (
        <LoadError error={members.error} retry={() => members.refetch()} />
      ) : (
        <table className="table">
          <caption className="visually-hidden">Members of this workspace</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Added</th>
              {isOwner && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.data.data.map((m) => (
              <tr key={m.user_id}>
                <td data-label="Email">{m.email}</td>
                <td data-label="Name">{m.name ?? <span className="muted">—</span>}</td>
                <td data-label="Role">{ROLE_NAMES[m.role]}</td>
                <td data-label="Added">
                  <Time iso={m.created_at} />
                </td>
                {isOwner && (
                  <td data-label="Actions">
                    <button type="button" className="danger small" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {isOwner && <AddMemberForm workspaceId={workspace.id} />}
      <RemoveMemberDialog workspaceId={workspace.id} member={removing} onClose={() => setRemoving(null)} />
    </>
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
        <TextField label="Email" type="email" autoComplete="off" registration={form.register('email')} error={form.formState.errors.email} />
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
  const [problem, setProblem] = useState<Problem | null>(null);
  const close = () => {
    setProblem(null);
    onClose();
  };
  const remove = useMutation({
    ...trpc.members.remove.mutationOptions(),
    onSuccess: async () => {
      await queryClient.invalidateQueries(trpc.members.list.pathFilter());
      // Removing oneself leaves the workspace: the switcher must forget it.
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
      close();
    },
    onError: (error) => setProblem(problemOf(error)),
  });
  return (
    <Dialog open={member !== null} onClose={close} title={`Remove ${member?.email ?? ''}?`}>
      <p>They lose access to this workspace's forms and submissions at once. Keys they created keep working until revoked.</p>
      <ProblemAlert problem={problem} explain={explainRemoval} />
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          onClick={() => member && remove.mutate({ workspace_id: workspaceId, user_id: member.user_id })}
        >
          Remove member
        </button>
        <button type="button" className="secondary" onClick={close}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
