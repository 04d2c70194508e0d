import { apiKeyUpdateInput } from '@lfk/api/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { apiResolver } from '../../components/api-resolver.ts';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { KEY_FIELDS, KeyFields, type KeyFieldValues, keyFieldsOf, keyFieldsToApi } from './key-fields.tsx';
import { type ApiKey, explainKeyProblem, keyLabel } from './key-words.tsx';

interface EditKeyDialogProps {
  workspaceId: string;
  /** The key to edit; null keeps the dialog closed. */
  apiKey: ApiKey | null;
  onClose: () => void;
}

/** Renames a key, describes it, or changes where it may be used from; a changed allowlist applies to the key's next request. */
export function EditKeyDialog({ workspaceId, apiKey, onClose }: EditKeyDialogProps) {
  return (
    <Dialog open={apiKey !== null} title={apiKey ? `Edit ${keyLabel(apiKey)}` : ''} onClose={onClose}>
      {apiKey && <EditKeyForm workspaceId={workspaceId} apiKey={apiKey} onDone={onClose} />}
    </Dialog>
  );
}

const toApi = (values: KeyFieldValues) => keyFieldsToApi(values, null);

/** The API input for the fields whose text differs from what the dialog opened with. */
const changedOnly = (input: ReturnType<typeof toApi>, now: KeyFieldValues, opened: KeyFieldValues) =>
  Object.fromEntries(Object.entries(input).filter(([field]) => now[field as keyof KeyFieldValues] !== opened[field as keyof KeyFieldValues])) as Partial<
    ReturnType<typeof toApi>
  >;

function EditKeyForm({ workspaceId, apiKey, onDone }: { workspaceId: string; apiKey: ApiKey; onDone: () => void }) {
  const queryClient = useQueryClient();
  // What the dialog opened with, kept as it was even if the key is read again meanwhile.
  const [opened] = useState(() => keyFieldsOf(apiKey));
  const form = useForm<KeyFieldValues, unknown, ReturnType<typeof toApi>>({
    resolver: apiResolver(apiKeyUpdateInput, toApi, () => KEY_FIELDS, { workspace_id: workspaceId, key_id: apiKey.id }),
    defaultValues: opened,
  });
  const problem = useFormProblem(KEY_FIELDS, form.setError);
  const update = useMutation({
    mutationFn: (input: Partial<ReturnType<typeof toApi>>) => trpcClient.apiKeys.update.mutate({ workspace_id: workspaceId, key_id: apiKey.id, ...input }),
    onSuccess: async () => {
      await queryClient.invalidateQueries(trpc.apiKeys.pathFilter());
      onDone();
    },
    onError: problem.report,
  });
  return (
    <SubmitForm
      // Only what this owner changed is sent: a field another owner changed meanwhile is kept.
      onSubmit={form.handleSubmit((input) => update.mutate(changedOnly(input, form.getValues(), opened)))}
      problem={problem}
      explain={explainKeyProblem}
      submitLabel="Save"
      pending={update.isPending}
      onCancel={onDone}
    >
      <KeyFields form={form} />
    </SubmitForm>
  );
}
