import { type ReactNode, useEffect, useId, useRef } from 'react';

interface DialogProps {
  open: boolean;
  /** Escape, the close button, or the caller's own buttons: every way out ends here. */
  onClose: () => void;
  title: string;
  children: ReactNode;
}

/**
 * A modal on the platform's `<dialog>`: `showModal()` puts it in the top layer, makes the rest of
 * the page inert, moves focus in, closes on Escape and gives focus back to where it was. Its
 * content is only mounted while open, so what it held (a new key) is gone once it closes.
 */
export function Dialog({ open, onClose, title, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      {open && (
        <>
          <header className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  );
}
