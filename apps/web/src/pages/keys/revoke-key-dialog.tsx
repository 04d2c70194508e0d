import type { RouterOutputs } from '@lfk/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Problem, problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ProblemAlert } from '../../components/problem-alert.tsx';

export type ApiKey = RouterOutputs['apiKeys']['list']['data'][number];

interface RevokeKeyDialogProps {
  workspaceId: string;
  /** The key to revoke; null keeps the dialog closed. */
  apiKey: ApiKey | null;
  onClose: () => void;
}

/** Asks before revoking, naming the key; the row turns "Revoked" as soon as the server agrees. */
export function RevokeKeyDialog({ workspaceId, apiKey, onClose }: RevokeKeyDialogProps) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<Problem | null>(null);
  const listKey = trpc.apiKeys.list.queryKey();
  const revoke = useMutation({
    ...trpc.apiKeys.revoke.mutationOptions(),
    onSuccess: (_result, { key_id }) => {
      const revokedAt = new Date().toISOString();
      queryClient.setQueriesData<{ data: ApiKey[]; next_cursor: string | null }>({ queryKey: listKey }, (list) =>
        list && {
          ...list,
          data: list.data.map((k) => (k.id === key_id ? { ...k, status: 'revoked' as const, revoked_at: k.revoked_at ?? revokedAt } : k)),
        },
      );
      void queryClient.invalidateQueries(trpc.apiKeys.list.pathFilter());
      close();
    },
    onError: (error) => setProblem(problemOf(error)),
  });
  const close = () => {
    setProblem(null);
    revoke.reset();
    onClose();
  };
  const label = apiKey ? (apiKey.name ? `“${apiKey.name}” (${apiKey.prefix}…)` : `${apiKey.prefix}…`) : '';
  return (
    <Dialog open={apiKey !== null} onClose={close} title={`Revoke ${label}?`}>
      <p>
        Anything that uses the key {label} stops working at once: its next request gets <code>401 invalid_api_key</code>.
        This cannot be undone. The key stays listed as revoked, for the record.
      </p>
      <ProblemAlert problem={problem} />
      <div className="actions">
        <button
          type="button"
          className="danger"
          disabled={revoke.isPending}
          onClick={() => apiKey && revoke.mutate({ workspace_id: workspaceId, key_id: apiKey.id })}
        >
          Revoke key
        </button>
        <button type="button" className="secondary" onClick={close}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
