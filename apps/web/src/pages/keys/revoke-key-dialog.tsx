import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { type ApiKey, explainKeyProblem, keyLabel } from './key-words.tsx';

interface RevokeKeyDialogProps {
  workspaceId: string;
  /** The key to revoke; null keeps the dialog closed. */
  apiKey: ApiKey | null;
  onClose: () => void;
}

/** Asks before revoking, naming the key; the row turns "Revoked" as soon as the server agrees. */
export function RevokeKeyDialog({ workspaceId, apiKey, onClose }: RevokeKeyDialogProps) {
  const queryClient = useQueryClient();
  const listKey = trpc.apiKeys.list.queryKey();
  const revoke = useMutation({
    ...trpc.apiKeys.revoke.mutationOptions(),
    onSuccess: (_result, { key_id }) => {
      const revokedAt = new Date().toISOString();
      queryClient.setQueriesData<{ data: ApiKey[]; next_cursor: string | null }>(
        { queryKey: listKey },
        (list) =>
          list && {
            ...list,
            data: list.data.map((k) =>
              k.id === key_id ? { ...k, status: 'revoked' as const, revoked_at: k.revoked_at ?? revokedAt, revoked_reason: k.revoked_reason ?? 'revoked' } : k,
            ),
          },
      );
      void queryClient.invalidateQueries(trpc.apiKeys.pathFilter());
      close();
    },
  });
  const close = () => {
    revoke.reset();
    onClose();
  };
  const label = apiKey ? keyLabel(apiKey) : '';
  return (
    <ConfirmDialog
      open={apiKey !== null}
      title={`Revoke ${label}?`}
      confirmLabel="Revoke key"
      onConfirm={() => apiKey && revoke.mutate({ workspace_id: workspaceId, key_id: apiKey.id })}
      onClose={close}
      pending={revoke.isPending}
      error={revoke.error}
      explain={explainKeyProblem}
    >
      <p>
        Anything that uses the key {label} stops working at once: its next request gets <code>401 invalid_api_key</code>. This cannot be undone. The key stays
        listed as revoked, for the record.
      </p>
    </ConfirmDialog>
  );
}
