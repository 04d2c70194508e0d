import type { RouterOutputs } from '@lfk/client';
import { MAX_ACTIVE_KEYS } from '@lfk/vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '../../api/problems.ts';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { ChoiceField } from '../../components/choice-field.tsx';
import { SubmitForm } from '../../components/submit-form.tsx';
import { type ApiKey, explainKeyProblem, keyLabel } from './key-words.tsx';
import { NewKeyDialog } from './new-key-dialog.tsx';

type RolledKey = RouterOutputs['apiKeys']['roll'];

/** How long the old key keeps working, in seconds: the choices Stripe's roll offers, within lfk's 7 days. */
const GRACE_CHOICES = [
  { value: '0', label: 'Stop it now' },
  { value: '3600', label: 'In 1 hour' },
  { value: '86400', label: 'In 24 hours' },
  { value: '604800', label: 'In 7 days' },
] as const;
type GraceChoice = (typeof GRACE_CHOICES)[number]['value'];

interface RollKeyDialogProps {
  workspaceId: string;
  /** The key to replace; null keeps the dialog closed. */
  apiKey: ApiKey | null;
  onClose: () => void;
}

/**
 * Replaces a key with a new one of the same name, shown once as on create; the old key stops now
 * or after the chosen grace period, so programs can move to the new key without an outage.
 */
export function RollKeyDialog({ workspaceId, apiKey, onClose }: RollKeyDialogProps) {
  const label = apiKey ? keyLabel(apiKey) : '';
  return (
    <NewKeyDialog open={apiKey !== null} title={`Roll ${label}?`} onClose={onClose}>
      {(shown, cancel) => apiKey && <RollForm workspaceId={workspaceId} apiKey={apiKey} label={label} onRolled={shown} onCancel={cancel} />}
    </NewKeyDialog>
  );
}

interface RollFormProps {
  workspaceId: string;
  apiKey: ApiKey;
  label: string;
  onRolled: (key: RolledKey) => void;
  onCancel: () => void;
}

function RollForm({ workspaceId, apiKey, label, onRolled, onCancel }: RollFormProps) {
  const queryClient = useQueryClient();
  const [grace, setGrace] = useState<GraceChoice>('86400');
  const roll = useMutation({
    // As on create, the plaintext goes to the dialog's state only, never into the mutation's cache.
    mutationFn: async () => {
      const key = await trpcClient.apiKeys.roll.mutate({ workspace_id: workspaceId, key_id: apiKey.id, grace_seconds: Number(grace) });
      onRolled(key);
      return key.id;
    },
    onSettled: () => queryClient.invalidateQueries(trpc.apiKeys.pathFilter()),
  });
  return (
    <SubmitForm
      onSubmit={(e) => {
        e.preventDefault();
        roll.mutate();
      }}
      problem={{ problem: roll.error ? problemOf(roll.error) : null, unplaced: [] }}
      explain={explainKeyProblem}
      submitLabel="Roll key"
      pending={roll.isPending}
      onCancel={onCancel}
    >
      <p>A new key named like {label} is made and shown once. Put it where the old one is used, before the old one stops.</p>
      <ChoiceField
        label="The old key stops working"
        hint={`Until then both keys work, and both count toward the workspace's ${MAX_ACTIVE_KEYS} active keys.`}
        value={grace}
        onChange={setGrace}
        choices={GRACE_CHOICES}
      />
    </SubmitForm>
  );
}
