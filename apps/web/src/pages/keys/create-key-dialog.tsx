import { zodResolver } from '@hookform/resolvers/zod';
import type { RouterOutputs } from '@lfk/api';
import { apiKeyCreateInput } from '@lfk/api/schemas';
import { MAX_ACTIVE_KEYS } from '@lfk/db/constants';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Problem } from '../../api/problems.ts';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';

type CreatedKey = RouterOutputs['apiKeys']['create'];

const nameOnly = apiKeyCreateInput.omit({ workspace_id: true });

function explainKeyLimit(problem: Problem) {
  if (problem.code !== 'api_key_limit_reached') return undefined;
  return (
    <>
      A workspace can hold {MAX_ACTIVE_KEYS} active keys at once, and this one has {MAX_ACTIVE_KEYS}. Revoke a key you
      no longer use (its row has a Revoke button), then create the new one. Revoked keys do not count.
    </>
  );
}

interface CreateKeyDialogProps {
  workspaceId: string;
  open: boolean;
  onClose: () => void;
}

/**
 * Creates a key and shows its plaintext once. The plaintext lives only in this dialog's state:
 * it never enters the query cache, storage or the URL, and closing the dialog unmounts it for good.
 */
export function CreateKeyDialog({ workspaceId, open, onClose }: CreateKeyDialogProps) {
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={created ? 'Your new API key' : 'Create an API key'}>
      {created ? <ShowKeyOnce created={created} onDone={close} /> : <NewKeyForm workspaceId={workspaceId} onCreated={setCreated} onCancel={close} />}
    </Dialog>
  );
}

function NewKeyForm({ workspaceId, onCreated, onCancel }: { workspaceId: string; onCreated: (key: CreatedKey) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(nameOnly), defaultValues: { name: undefined } });
  const problem = useFormProblem(['name'], form.setError);
  const create = useMutation({
    // The answer goes straight to the dialog; what the mutation keeps is only the key's id.
    mutationFn: async (input: { name?: string | undefined }) => {
      const key = await trpcClient.apiKeys.create.mutate({ workspace_id: workspaceId, ...input });
      onCreated(key);
      return key.id;
    },
    onSettled: () => queryClient.invalidateQueries(trpc.apiKeys.list.pathFilter()),
    onError: problem.report,
  });
  return (
    <SubmitForm
      onSubmit={form.handleSubmit((input) => create.mutate(input))}
      problem={problem}
      explain={explainKeyLimit}
      submitLabel="Create key"
      pending={create.isPending}
      onCancel={onCancel}
    >
      <TextField
        form={form}
        name="name"
        optional
        label="Name"
        hint="Optional: what uses this key, such as “deploy bot”. Names help when revoking."
        autoComplete="off"
      />
    </SubmitForm>
  );
}

function ShowKeyOnce({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <div className="secret">
      <div className="alert alert-warning" role="alert">
        <p>
          <strong>Copy this key now. You will not see it again:</strong> lfk keeps only a hash of it. If you lose it,
          revoke it and create another.
        </p>
      </div>
      <label htmlFor="new-api-key">API key{created.name ? ` “${created.name}”` : ''}</label>
      <div className="secret-row">
        <input id="new-api-key" className="mono" readOnly value={created.key} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={created.key} />
      </div>
      <p className="hint">
        Send it as <code>Authorization: Bearer lfk_…</code> from server-side code only.
      </p>
      <div className="actions">
        <button type="button" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </div>
  );
}
