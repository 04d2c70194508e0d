import type { Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { apiResolver } from '../../components/api-resolver.ts';
import { type ApiFormFields, type EditorValues, editorFieldNames, toApiFields } from './form-values.ts';

/** Validates the editor with the API's own schema (`formCreateInput`, `formUpdateInput`). */
export function editorResolver(schema: z.ZodType<unknown, unknown>, extra: Record<string, unknown>): Resolver<EditorValues, unknown, ApiFormFields> {
  return apiResolver(schema, toApiFields, (values) => editorFieldNames(values.schema.length), extra);
}
