import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { fieldFor } from '../../components/field-errors.ts';
import { type ApiFormFields, type EditorValues, editorFieldNames, toApiFields } from './form-values.ts';

/**
 * Validates the editor with the API's own schema (`formCreateInput`, `formUpdateInput`): the
 * editor's values are turned into the API's input, checked, and each issue is put beside the
 * field that shows it (`allowed_origins.2` beside the origins box).
 */
export function editorResolver(schema: z.ZodType<unknown, unknown>, extra: Record<string, unknown>): Resolver<EditorValues, unknown, ApiFormFields> {
  return async (values, _context, options) => {
    const api = toApiFields(values);
    const parsed = schema.safeParse({ ...api, ...extra });
    if (parsed.success) return { values: api, errors: {} };
    const fields = editorFieldNames(values.schema.length);
    const flat: Record<string, FieldError> = {};
    for (const issue of parsed.error.issues) {
      const field = fieldFor(issue.path.join('.'), fields) ?? 'root';
      flat[field] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}
