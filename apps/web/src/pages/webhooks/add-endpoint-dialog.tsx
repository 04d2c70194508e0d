import { useState } from 'react';
import { Dialog } from '../../components/dialog.tsx';
import { AddEndpointForm } from './add-endpoint-form.tsx';
import { SigningSecret } from './signing-secret.tsx';

/** Adding an endpoint: its form, then (for one that signs with a shared secret) the secret, once. */
export function AddEndpointDialog({ formId, open, onClose }: { formId: string; open: boolean; onClose: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={secret ? 'Your endpoint’s signing secret' : 'Add a webhook endpoint'}>
      {secret ? (
        <SigningSecret secret={secret} note="A member can reveal it again here later; an API key cannot." onDone={close} />
      ) : (
        <AddEndpointForm formId={formId} onCreated={setSecret} onCancel={close} />
      )}
    </Dialog>
  );
}
