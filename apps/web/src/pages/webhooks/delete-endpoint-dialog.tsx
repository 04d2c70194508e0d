import { useMutation } from '@tanstack/react-query';
import { trpc } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

interface DeleteEndpointDialogProps {
  ids: { form_id: string; webhook_id: string };
  url: string;
  open: boolean;
  onClose: () => void;
  onDeleted: () => Promise<unknown>;
}

/** Asks before deleting an endpoint, and deletes it. */
export function DeleteEndpointDialog({ ids, url, open, onClose, onDeleted }: DeleteEndpointDialogProps) {
  const remove = useMutation({ ...trpc.webhooks.delete.mutationOptions(), onSuccess: onDeleted });
  return (
    <ConfirmDialog
      open={open}
      title="Delete this endpoint?"
      confirmLabel="Delete endpoint"
      onConfirm={() => remove.mutate(ids)}
      onClose={() => {
        onClose();
        remove.reset();
      }}
      pending={remove.isPending}
      error={remove.error}
    >
      <p>
        Nothing more is sent to <code>{url}</code>; deliveries still waiting are cancelled, and its log is deleted.
      </p>
    </ConfirmDialog>
  );
}
