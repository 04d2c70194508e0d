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
 * The element that last had the focus: a button that started a request is disabled while it runs,
 * which drops the focus to the page's body, so a dialog opened when the answer comes (a secret
 * revealed, "Confirm it's you", an offer) finds the body focused, and its opener here.
 */
let lastFocused: HTMLElement | null = null;
document.addEventListener('focusin', (event) => {
  if (event.target instanceof HTMLElement) lastFocused = event.target;
});

/** Focuses `element`, making it focusable by script first if it is not (a heading). */
function focusOn(element: HTMLElement) {
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.tabIndex = -1;
  element.focus();
}

/**
 * Gives the focus back to what opened a dialog, unless something else has it already (another
 * dialog took it). An opener gone (a row deleted) or disabled (nothing
 * left to delete, or running its request again after "Confirm it's you") hands it to the page's
 * heading; one that is enabled again while the focus still waits there gets it.
 */
function giveFocusBack(opener: HTMLElement) {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    // The platform may have given it back to the opener already (as `<dialog>` does on close): the
    // opener is still watched below, as the answer may remove it a moment later.
    if (active !== document.body && active !== null && active !== opener) return;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!opener.isConnected) {
      if (heading) focusOn(heading);
      return;
    }
    if (!(opener as HTMLButtonElement).disabled) {
      opener.focus();
      // An opener the answer removes a moment later (a button for what is done now) would drop
      // the focus to the body: the heading takes it then.
      const fallBack = () => {
        if (opener.isConnected) return;
        removed.disconnect();
        if (heading && (document.activeElement === document.body || document.activeElement === null)) focusOn(heading);
      };
      const removed = new MutationObserver(fallBack);
      removed.observe(document.body, { childList: true, subtree: true });
      // Chromium blurs an element as it removes it: whether it was removed shows a frame later.
      opener.addEventListener('blur', () => requestAnimationFrame(() => (opener.isConnected ? removed.disconnect() : fallBack())), { once: true });
      setTimeout(() => removed.disconnect(), 60_000);
      return;
    }
    if (heading) focusOn(heading);
    const watch = new MutationObserver(() => {
      if (!(opener as HTMLButtonElement).disabled && (document.activeElement === heading || document.activeElement === document.body)) opener.focus();
      if (!(opener as HTMLButtonElement).disabled) watch.disconnect();
    });
    watch.observe(opener, { attributes: true, attributeFilter: ['disabled'] });
    setTimeout(() => watch.disconnect(), 60_000);
  });
}

/**
 * A modal on the platform's `<dialog>`: `showModal()` puts it in the top layer, makes the rest of
 * the page inert, moves focus in, closes on Escape and gives focus back to what opened it. Its
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
  /** What opened it: focus goes back there when it closes, however it closes. */
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : lastFocused;
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    if (!open) {
      setAsking(false);
      if (opener.current) giveFocusBack(opener.current);
      opener.current = null;
    }
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
