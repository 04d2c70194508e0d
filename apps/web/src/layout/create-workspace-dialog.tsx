import { zodResolver } from '@hookform/resolvers/zod';
import { workspaceCreateInput } from '@lfk/api/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { trpc } from '../api/trpc.ts';
import { Dialog } from '../components/dialog.tsx';
import { useFormProblem } from '../components/form-problem.ts';
import { SubmitForm } from '../components/submit-form.tsx';
import { TextField } from '../components/text-field.tsx';

/** A new workspace, owned by the person who makes it; the dashboard moves into it. */
export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="New workspace">
      <CreateWorkspaceForm onDone={onClose} />
    </Dialog>
  );
}

/** Also the whole of the welcome page, for a person who has no workspace (without `onDone`: no Cancel). */
export function CreateWorkspaceForm({ onDone }: { onDone?: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm({ resolver: zodResolver(workspaceCreateInput), defaultValues: { name: '' } });
  const problem = useFormProblem(['name'], form.setError);
  const create = useMutation({
    ...trpc.workspaces.create.mutationOptions(),
    onSuccess: async (workspace) => {
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
      onDone?.();
      await navigate({ to: '/w/$workspaceId/forms', params: { workspaceId: workspace.id } });
    },
    onError: problem.report,
  });
  return (
    <SubmitForm
      onSubmit={form.handleSubmit((input) => create.mutate(input))}
      problem={problem}
      submitLabel="Create workspace"
      pending={create.isPending}
      onCancel={onDone}
    >
      <TextField form={form} name="name" label="Name" autoComplete="off" />
    </SubmitForm>
  );
}
