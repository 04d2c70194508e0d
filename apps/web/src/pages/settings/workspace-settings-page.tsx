import { zodResolver } from '@hookform/resolvers/zod';
import { workspaceCreateInput } from '@lfk/api/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { type Problem, problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { TextField } from '../../components/text-field.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';

/** The workspace's own settings: its name, leaving it, and (owners) deleting it. */
export function WorkspaceSettingsPage() {
  const workspace = useWorkspace();
  usePageTitle('Settings', workspace.name);
  const isOwner = workspace.role === 'owner';
  return (
    <>
      <h1>Workspace settings</h1>
      {isOwner ? <RenameWorkspaceForm workspaceId={workspace.id} name={workspace.name} /> : <p className="lead">Only owners can rename or delete this workspace.</p>}
      <LeaveWorkspace workspaceId={workspace.id} name={workspace.name} />
      {isOwner && <DeleteWorkspace workspaceId={workspace.id} name={workspace.name} />}
    </>
  );
}

// The rename form edits the name alone, held to the rule a new workspace's name is.
const renameFields = workspaceCreateInput;

function RenameWorkspaceForm({ workspaceId, name }: { workspaceId: string; name: string }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const form = useForm({ resolver: zodResolver(renameFields), defaultValues: { name } });
  const problem = useFormProblem(['name'], form.setError);
  const rename = useMutation({
    ...trpc.workspaces.update.mutationOptions(),
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

function explainLastOwner(problem: Problem) {
  if (problem.code === 'last_owner') return 'A workspace keeps at least one owner: make someone else an owner first, on the Members page.';
  return undefined;
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
        explain={explainLastOwner}
      >
        <p>To come back, an owner must invite you again.</p>
      </ConfirmDialog>
    </section>
  );
}

/** The danger zone: deleting the workspace with all it holds, confirmed by typing its name. */
function DeleteWorkspace({ workspaceId, name }: { workspaceId: string; name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const confirmId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    ...trpc.workspaces.delete.mutationOptions(),
    onSuccess: async () => {
      queryClient.removeQueries();
      await navigate({ to: '/' });
    },
  });
  const close = () => {
    setOpen(false);
    setTyped('');
    remove.reset();
  };
  return (
    <section className="danger-zone" aria-labelledby="delete-workspace-title">
      <h2 id="delete-workspace-title">Delete this workspace</h2>
      <p>Its API keys stop working at once; its forms, their submissions and webhooks, its members and its audit log are deleted for good.</p>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        Delete workspace
      </button>
      <Dialog open={open} onClose={close} title={`Delete “${name}”?`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            remove.mutate({ workspace_id: workspaceId, confirm: typed });
          }}
        >
          <p>This cannot be undone. Every key, form and submission of this workspace is deleted.</p>
          <div className="field">
            <label htmlFor={confirmId}>Type the workspace's name, {name}, to confirm</label>
            <input id={confirmId} value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
          </div>
          <ProblemAlert problem={remove.error ? problemOf(remove.error) : null} />
          <div className="actions">
            <button type="submit" className="danger" disabled={remove.isPending || typed !== name}>
              Delete workspace
            </button>
            <button type="button" className="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}
