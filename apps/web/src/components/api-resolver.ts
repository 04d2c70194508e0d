import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { fieldFor } from './field-errors.ts';

/**
 * Validates a form with the API's own schema: the form's values are turned into the API's input
 * (`toApi`), checked with `extra` (the ids the call also sends), and each issue is put beside the
 * field that shows it (`allowed_origins.2` beside the origins box), else on the form as a whole.
 */
export function apiResolver<V extends FieldValues, A>(
  schema: z.ZodType<unknown, unknown>,
  toApi: (values: V) => A,
  fieldsOf: (values: V) => readonly string[],
  extra: Record<string, unknown> = {},
): Resolver<V, unknown, A> {
  return async (values, _context, options) => {
    const api = toApi(values);
    const parsed = schema.safeParse({ ...api, ...extra });
    if (parsed.success) return { values: api, errors: {} };
    const fields = fieldsOf(values);
    const flat: Record<string, FieldError> = {};
    for (const issue of parsed.error.issues) {
      const field = fieldFor(issue.path.join('.'), fields) ?? 'root';
      flat[field] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}
