import type { ReactNode } from 'react';
import { type Problem, problemOf } from '../api/problems.ts';
import { Dialog } from './dialog.tsx';
import { ProblemAlert } from './problem-alert.tsx';

interface ConfirmDialogProps {
  open: boolean;
  /** The question, naming what it is about ("Revoke “deploy bot”?"). */
  title: string;
  /** What happens once confirmed, and what cannot be undone. */
  children: ReactNode;
  /** The dangerous button's name ("Revoke key"). */
  confirmLabel: string;
  onConfirm: () => void;
  /** Cancel, Escape or the close button; the caller also forgets a failed attempt here. */
  onClose: () => void;
  /** While the action runs, the button cannot be pressed twice. */
  pending: boolean;
  /** Why the last attempt failed; null when it did not. */
  error: unknown;
  explain?: (problem: Problem) => ReactNode;
  /** An offer rather than a danger ("Send them"): the button is the page's ordinary one, and Cancel may say "Not now". */
  offer?: { cancelLabel: string };
}

/** Asks before a destructive action (or makes an offer), says why it failed if it did, and closes on Cancel. */
export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onClose, pending, error, explain, offer }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {children}
      <ProblemAlert problem={error ? problemOf(error) : null} explain={explain} />
      <div className="actions">
        <button type="button" className={offer ? undefined : 'danger'} disabled={pending} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="secondary" onClick={onClose}>
          {offer?.cancelLabel ?? 'Cancel'}
        </button>
      </div>
    </Dialog>
  );
}
