import type { FormEventHandler, ReactNode } from 'react';
import type { Problem } from '../api/problems.ts';
import type { FormProblem } from './form-problem.ts';
import { ProblemAlert } from './problem-alert.tsx';

interface SubmitFormProps {
  /** The form library's submit handler: it validates first and calls the mutation with the values. */
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The call's error: details beside their fields, the rest in the alert above the buttons. */
  problem: Pick<FormProblem, 'problem' | 'unplaced'>;
  explain?: (problem: Problem) => ReactNode;
  submitLabel: string;
  /** While the call runs the form cannot be sent twice. */
  pending: boolean;
  /** The submit button does something that cannot be undone (it is styled as such). */
  danger?: boolean;
  /** A Cancel button beside the submit one (in a dialog). */
  onCancel?: () => void;
  className?: string;
  /** The fields. */
  children: ReactNode;
}

/**
 * A form that makes one call: its fields, validated by the browser-safe API schema before sending
 * (so `noValidate`), what the API refused, and its buttons.
 */
export function SubmitForm({ onSubmit, problem, explain, submitLabel, pending, danger, onCancel, className, children }: SubmitFormProps) {
  return (
    <form className={className} onSubmit={onSubmit} noValidate>
      {children}
      <ProblemAlert problem={problem.problem} unplacedDetails={problem.unplaced} explain={explain} />
      <div className="actions">
        <button type="submit" className={danger ? 'danger' : undefined} disabled={pending}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
