import { apiKeyCreateInput } from '@lfk/api/schemas';
import type { RouterOutputs } from '@lfk/client';
import { API_KEY_EXPIRY_SECONDS, DAY_MS } from '@lfk/vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { apiResolver } from '../../components/api-resolver.ts';
import { ChoiceField } from '../../components/choice-field.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { localInput } from '../../components/local-time.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { KEY_FIELDS, KeyFields, type KeyFieldValues, keyFieldsToApi } from './key-fields.tsx';
import { explainKeyProblem } from './key-words.tsx';
import { NewKeyDialog } from './new-key-dialog.tsx';

type CreatedKey = RouterOutputs['apiKeys']['create'];

/** GitHub's choices for a token's life, and a date of the owner's choosing: any instant from 1 hour to 1 year ahead. */
const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '60', label: 'In 60 days' },
  { value: '90', label: 'In 90 days' },
  { value: 'custom', label: 'On a date you choose…' },
] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

interface CreateValues extends KeyFieldValues {
  expiry: ExpiryChoice;
  /** The date chosen (`datetime-local`): the owner's own time, as their browser reads it; sent as the instant it names. */
  expires_at: string;
}

/** `expires_at` as the API takes it: presets from now, a chosen date as the instant it names here. */
function expiresAt(values: CreateValues): string | undefined {
  if (values.expiry === 'never') return undefined;
  if (values.expiry === 'custom') {
    const at = new Date(values.expires_at);
    // Blank or unreadable: sent as it is, so the schema says what is wrong beside the date.
    return Number.isNaN(at.getTime()) ? values.expires_at : at.toISOString();
  }
  return new Date(Date.now() + Number(values.expiry) * DAY_MS).toISOString();
}

const toApi = (values: CreateValues) => {
  const expires_at = expiresAt(values);
  return { ...keyFieldsToApi(values, undefined), ...(expires_at !== undefined ? { expires_at } : {}) };
};

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
  const fields = [...KEY_FIELDS, 'expires_at'];
  const form = useForm<CreateValues, unknown, ReturnType<typeof toApi>>({
    resolver: apiResolver(apiKeyCreateInput, toApi, () => fields, { workspace_id: workspaceId }),
    defaultValues: { name: '', description: '', allowed_ips: '', expiry: 'never', expires_at: '' },
  });
  const problem = useFormProblem(fields, form.setError);
  const expiry = form.watch('expiry');
  const create = useMutation({
    // The answer goes straight to the dialog; what the mutation keeps is only the key's id.
    mutationFn: async (input: ReturnType<typeof toApi>) => {
      const key = await trpcClient.apiKeys.create.mutate({ workspace_id: workspaceId, ...input });
      onCreated(key);
      return key.id;
    },
    onSettled: () => queryClient.invalidateQueries(trpc.apiKeys.list.pathFilter()),
    onError: problem.report,
  });
  const now = Date.now();
  return (
    <SubmitForm
      onSubmit={form.handleSubmit((input) => create.mutate(input))}
      problem={problem}
      explain={explainKeyProblem}
      submitLabel="Create key"
      pending={create.isPending}
      onCancel={onCancel}
    >
      <KeyFields form={form} />
      <ChoiceField
        label="Expires"
        hint="At that moment the key stops working on its own. Owners are emailed 7 days and 1 day before."
        value={expiry}
        onChange={(choice) => form.setValue('expiry', choice)}
        choices={EXPIRY_CHOICES}
      />
      {expiry === 'custom' && (
        <TextField
          form={form}
          name="expires_at"
          label="Expires on"
          type="datetime-local"
          min={localInput(new Date(now + API_KEY_EXPIRY_SECONDS.min * 1000))}
          max={localInput(new Date(now + API_KEY_EXPIRY_SECONDS.max * 1000))}
          hint="In your time zone; between an hour and a year from now."
        />
      )}
    </SubmitForm>
  );
}
