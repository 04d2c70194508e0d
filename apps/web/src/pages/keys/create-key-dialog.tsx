import { zodResolver } from '@hookform/resolvers/zod';
import type { RouterOutputs } from '@lfk/api';
import { apiKeyCreateInput } from '@lfk/api/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { ChoiceField } from '../../components/choice-field.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { explainKeyProblem } from './key-words.tsx';
import { NewKeyDialog } from './new-key-dialog.tsx';

type CreatedKey = RouterOutputs['apiKeys']['create'];

const nameOnly = apiKeyCreateInput.pick({ name: true });

/** GitHub's choices for a token's life; the API takes any instant from 1 hour to 1 year ahead. */
const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '60', label: 'In 60 days' },
  { value: '90', label: 'In 90 days' },
] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

function expiresAt(choice: ExpiryChoice): string | undefined {
  return choice === 'never' ? undefined : new Date(Date.now() + Number(choice) * 86_400_000).toISOString();
}

interface CreateKeyDialogProps {
  workspaceId: string;
  open: boolean;
  onClose: () => void;
}

export function CreateKeyDialog({ workspaceId, open, onClose }: CreateKeyDialogProps) {
  return (
    <NewKeyDialog open={open} title="Create an API key" onClose={onClose}>
      {(shown, cancel) => <NewKeyForm workspaceId={workspaceId} onCreated={shown} onCancel={cancel} />}
    </NewKeyDialog>
  );
}

function NewKeyForm({ workspaceId, onCreated, onCancel }: { workspaceId: string; onCreated: (key: CreatedKey) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(nameOnly), defaultValues: { name: undefined } });
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const problem = useFormProblem(['name'], form.setError);
  const create = useMutation({
    // The answer goes straight to the dialog; what the mutation keeps is only the key's id.
    mutationFn: async (input: { name?: string | undefined }) => {
      const key = await trpcClient.apiKeys.create.mutate({ workspace_id: workspaceId, ...input, expires_at: expiresAt(expiry) });
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
      explain={explainKeyProblem}
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
      <ChoiceField
        label="Expires"
        hint="At that moment the key stops working on its own. Owners are emailed 7 days and 1 day before."
        value={expiry}
        onChange={setExpiry}
        choices={EXPIRY_CHOICES}
      />
    </SubmitForm>
  );
}
