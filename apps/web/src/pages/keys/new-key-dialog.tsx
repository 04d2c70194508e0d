import { type ReactNode, useState } from 'react';
import { SecretOnce } from '../../components/secret-once.tsx';
import { Dialog } from '../../components/dialog.tsx';

/** What create and roll answer: the one response that carries the plaintext. */
interface NewKey {
  key: string;
  name: string | null;
}

interface NewKeyDialogProps {
  open: boolean;
  /** The title while asking (the form's); once the key is made it is "Your new API key". */
  title: string;
  onClose: () => void;
  /** The form that makes the key; it hands the answer to `shown`. */
  children: (shown: (key: NewKey) => void, cancel: () => void) => ReactNode;
}

/**
 * A dialog that makes a key (create, roll) and then shows its plaintext once. The plaintext lives
 * only in this dialog's state: it never enters the query cache, storage or the URL, and closing
 * the dialog unmounts it for good.
 */
export function NewKeyDialog({ open, title, onClose, children }: NewKeyDialogProps) {
  const [created, setCreated] = useState<NewKey | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title={created ? 'Your new API key' : title}
      leaveWarning={created ? 'Close without the key? It is shown only now: once this closes, nobody can see it again.' : undefined}
    >
      {created ? <ShowKeyOnce created={created} onDone={close} /> : children(setCreated, close)}
    </Dialog>
  );
}

function ShowKeyOnce({ created, onDone }: { created: NewKey; onDone: () => void }) {
  return (
    <SecretOnce
      warning={
        <>
          <strong>Copy this key now. You will not see it again:</strong> lfk keeps only a hash of it. If you lose it, revoke it and create another.
        </>
      }
      label={`API key${created.name ? ` “${created.name}”` : ''}`}
      value={created.key}
      hint={
        <>
          Send it as <code>Authorization: Bearer lfk_…</code> from server-side code only.
        </>
      }
      onDone={onDone}
    />
  );
}
