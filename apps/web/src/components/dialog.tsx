import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

interface DialogProps {
  open: boolean;
  /** Escape, the close button, or the caller's own buttons: every way out ends here. */
  onClose: () => void;
  title: string;
  children: ReactNode;
  /**
   * Set while closing would lose something for good (a key shown once): Escape and the close
   * button then ask first, with these words, instead of closing. The caller's own buttons do not.
   */
  leaveWarning?: string | undefined;
}

/**
 * A modal on the platform's `<dialog>`: `showModal()` puts it in the top layer, makes the rest of
 * the page inert, moves focus in, closes on Escape and gives focus back to where it was. Its
 * content is only mounted while open, so what it held (a new key) is gone once it closes.
 */
export function Dialog({ open, onClose, title, children, leaveWarning }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [asking, setAsking] = useState(false);
  const stay = useRef<HTMLButtonElement>(null);
  /** What had the focus when the question was asked: it gets it back when the person stays. */
  const before = useRef<HTMLElement | null>(null);
  // The question takes the focus, so a keyboard user answers it next.
  useEffect(() => {
    if (asking) stay.current?.focus();
  }, [asking]);
  const ask = () => {
    before.current = document.activeElement instanceof HTMLElement && ref.current?.contains(document.activeElement) ? document.activeElement : null;
    setAsking(true);
  };
  // Staying removes the question and its button: the focus goes back where it was, or to the dialog, never to the page.
  const stayHere = () => {
    setAsking(false);
    requestAnimationFrame(() => (before.current?.isConnected ? before.current : ref.current)?.focus());
  };
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
    if (!open) setAsking(false);
  }, [open]);
  const leave = () => (leaveWarning ? ask() : onClose());
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      onClose={onClose}
      onCancel={(event) => {
        // Escape: asked first when closing would lose something.
        if (!leaveWarning) return;
        event.preventDefault();
        ask();
      }}
    >
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={leave}>
              ×
            </button>
          </header>
          <div className="dialog-body">
            {asking && leaveWarning && (
              <div className="alert alert-warning" role="alert">
                <p>{leaveWarning}</p>
                <div className="actions">
                  <button type="button" className="danger" onClick={onClose}>
                    Close anyway
                  </button>
                  <button ref={stay} type="button" className="secondary" onClick={stayHere}>
                    Stay
                  </button>
                </div>
              </div>
            )}
            {children}
          </div>
        </>
      )}
    </dialog>
  );
}
