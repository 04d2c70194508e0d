import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { Problem } from '../api/problems.ts';
import { trpc } from '../api/trpc.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';

function explainLastOwner(problem: Problem) {
  if (problem.code === 'last_owner') return 'A workspace keeps at least one owner: make someone else an owner first, on the Members page.';
  return undefined;
}

/**
 * Leaving: anyone may, but the last owner, who is told what to do first. On the settings page, and
 * in place of a workspace that requires a second factor its member lacks (leaving stays open to them).
 */
export function LeaveWorkspace({ workspaceId, name }: { workspaceId: string; name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const leave = useMutation({
    ...trpc.members.leave.mutationOptions(),
    onSuccess: async () => {
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
      await navigate({ to: '/' });
    },
  });
  return (
    <section aria-labelledby={titleId} className="card">
      <h2 id={titleId}>Leave this workspace</h2>
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
