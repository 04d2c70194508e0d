import { type ReactNode, useState } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';
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
    <Dialog open={open} onClose={close} title={created ? 'Your new API key' : title}>
      {created ? <ShowKeyOnce created={created} onDone={close} /> : children(setCreated, close)}
    </Dialog>
  );
}

function ShowKeyOnce({ created, onDone }: { created: NewKey; onDone: () => void }) {
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
