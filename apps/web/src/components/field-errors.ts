import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import type { FieldProblem, Problem } from '../api/problems.ts';

/**
 * The form field a detail's path belongs to: the longest of `fields` that is the path or a prefix
 * of it (`allowed_origins.2` → `allowed_origins`); null when none is.
 */
export function fieldFor(path: string, fields: readonly string[]): string | null {
  let best: string | null = null;
  for (const field of fields) {
    if ((path === field || path.startsWith(`${field}.`)) && (best === null || field.length > best.length)) best = field;
  }
  return best;
}

/**
 * Puts each of the API's `details` next to the field it is about; returns those no field on
 * this form shows, for the form's own alert.
 */
export function placeFieldProblems<T extends FieldValues>(problem: Problem, fields: readonly string[], setError: UseFormSetError<T>): FieldProblem[] {
  const unplaced: FieldProblem[] = [];
  for (const detail of problem.details) {
    const field = fieldFor(detail.path, fields);
    if (field) setError(field as FieldPath<T>, { type: 'server', message: detail.message });
    else unplaced.push(detail);
  }
  return unplaced;
}
