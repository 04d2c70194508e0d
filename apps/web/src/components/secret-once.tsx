import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CopyButton } from './copy-button.tsx';

interface SecretOnceProps {
  /** Why to copy it now (what happens if it is lost). */
  warning: ReactNode;
  label: string;
  value: string;
  /** How to use it. */
  hint: ReactNode;
  onDone: () => void;
  /** Several lines (recovery codes): shown whole, one a line. */
  multiline?: boolean;
  /** The button that closes it ("I have copied it"). */
  doneLabel?: string;
}

/**
 * A secret shown once (a new API key, a webhook's signing secret): selected on focus, with a copy
 * button. It lives only in the dialog that shows it: never in the query cache, storage or the URL.
 * It takes the focus when it appears: the form that was focused gave way to it.
 */
export function SecretOnce({ warning, label, value, hint, onDone, multiline = false, doneLabel = 'I have copied it' }: SecretOnceProps) {
  const id = useId();
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => {
    input.current?.focus();
    // A dialog opened with it in one go is shown after this runs (and moves the focus to its own first button): once more, then.
    const frame = requestAnimationFrame(() => {
      if (document.activeElement !== input.current) input.current?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <div className="secret">
      <div className="alert alert-warning" role="alert">
        <p>{warning}</p>
      </div>
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        {multiline ? (
          <textarea ref={input} id={id} className="mono" readOnly rows={value.split('\n').length} value={value} onFocus={(e) => e.currentTarget.select()} />
        ) : (
          <input ref={input} id={id} className="mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        )}
        <CopyButton text={value} />
      </div>
      <p className="hint">{hint}</p>
      <div className="actions">
        <button type="button" onClick={onDone}>
          {doneLabel}
        </button>
      </div>
    </div>
  );
}
