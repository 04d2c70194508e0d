import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { trpc } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import type { Form } from './form-values.ts';

/** The danger zone of a form's page: deleting it with everything it holds (owners only; others are not offered it). */
export function DeleteForm({ form, workspaceId }: { form: Form; workspaceId: string }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    ...trpc.forms.delete.mutationOptions(),
    onSuccess: () => {
      queryClient.removeQueries(trpc.forms.get.queryFilter({ form_id: form.id }));
      void queryClient.invalidateQueries(trpc.forms.list.pathFilter());
      void navigate({ to: '/w/$workspaceId/forms', params: { workspaceId } });
    },
  });
  return (
    <section className="danger-zone" aria-labelledby="danger-title">
      <h2 id="danger-title">Delete this form</h2>
      <p>Its submissions, their emails and its webhooks are deleted with it. Its embedded HTML stops working.</p>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        Delete form
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete “${form.name}”?`}
        confirmLabel="Delete form"
        onConfirm={() => remove.mutate({ form_id: form.id })}
        onClose={() => {
          setOpen(false);
          remove.reset();
        }}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>Every submission it holds is deleted for good. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
