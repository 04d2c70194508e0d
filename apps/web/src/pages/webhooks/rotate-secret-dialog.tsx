import type { RouterOutputs } from '@lfk/client';
import { useMutation } from '@tanstack/react-query';
import { trpcClient } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

type Rotated = RouterOutputs['webhooks']['rotateSecret'];

/** What to tell after a rotation: how long the one it replaces keeps signing, and what to deploy. */
function rotationNote(rotated: Rotated): string {
  const until = rotated.previous_secret_expires_at;
  const [what, deploy] = rotated.secret ? ['Secret', 'deploy this one'] : ['Key pair', 'give your servers its public key (below)'];
  return until
    ? `${what} ${rotated.number}. The one it replaces keeps signing too until ${new Date(until).toLocaleString()}: ${deploy} before then.`
    : `The previous ${what.toLowerCase()} could not be kept (it was sealed under another server key): only this one signs now.`;
}

interface RotateSecretDialogProps {
  ids: { form_id: string; webhook_id: string };
  open: boolean;
  onClose: () => void;
  /** The new secret (null for an Ed25519 endpoint's key pair: its public key is on the card) and what to tell of it. */
  onRotated: (rotated: { secret: string | null; note: string }) => void;
}

/** Asks before rotating an endpoint's signing secret, and rotates it. */
export function RotateSecretDialog({ ids, open, onClose, onRotated }: RotateSecretDialogProps) {
  const rotate = useMutation({
    mutationFn: () => trpcClient.webhooks.rotateSecret.mutate(ids),
    onSuccess: (rotated) => {
      onClose();
      onRotated({ secret: rotated.secret, note: rotationNote(rotated) });
    },
  });
  return (
    <ConfirmDialog
      open={open}
      title="Rotate the signing secret?"
      confirmLabel="Rotate secret"
      onConfirm={() => rotate.mutate()}
      onClose={() => {
        onClose();
        rotate.reset();
      }}
      pending={rotate.isPending}
      error={rotate.error}
    >
      <p>
        A new secret signs from now on. The current one keeps signing beside it for 24 hours, so receivers can move over, as do those rotated away before, each
        until its own end (5 at most: a rotation past them ends the oldest at once).
      </p>
    </ConfirmDialog>
  );
}
