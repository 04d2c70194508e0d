import { CopyButton } from '../../components/copy-button.tsx';

/** A key's plaintext, shown the one time the API gives it (create and roll), with Copy. */
export function ShowKeyOnce({ created, onDone }: { created: { key: string; name: string | null }; onDone: () => void }) {
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
