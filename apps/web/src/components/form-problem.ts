import { useState } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { type FieldProblem, type Problem, problemOf } from '../api/problems.ts';
import { placeFieldProblems } from './field-errors.ts';

export interface FormProblem {
  /** What the form's alert shows; null when every detail sits beside its field. */
  problem: Problem | null;
  unplaced: FieldProblem[];
  /** Takes a failed call's error: details go beside their fields, the rest to the alert. */
  report: (error: unknown) => void;
  clear: () => void;
}

/**
 * The error state of one form. A validation error whose every detail is shown beside a field
 * needs no alert besides; anything else (a conflict, a rate limit, a network failure) does.
 */
export function useFormProblem<T extends FieldValues>(
  fields: readonly string[],
  setError: UseFormSetError<T>,
  /** Errors without details that are still about one field (`email_taken` → `email`). */
  fieldOfCode: Record<string, string> = {},
): FormProblem {
  const [state, setState] = useState<{ problem: Problem; unplaced: FieldProblem[] } | null>(null);
  return {
    problem: state?.problem ?? null,
    unplaced: state?.unplaced ?? [],
    report(error) {
      const problem = problemOf(error);
      const field = fieldOfCode[problem.code];
      if (field && fields.includes(field)) {
        setError(field as FieldPath<T>, { type: problem.code, message: problem.message });
        setState(null);
        return;
      }
      const unplaced = placeFieldProblems(problem, fields, setError);
      const allPlaced = problem.details.length > 0 && unplaced.length === 0;
      setState(allPlaced ? null : { problem, unplaced });
    },
    clear: () => setState(null),
  };
}
