import { SUBMISSION_SOURCES } from '@lfk/db/constants';
import { z } from 'zod';
import { idParam, listInput, timestamp } from '../../common-schemas.ts';

/** The most a submission's values may weigh, as JSON: on every transport (REST also reads no more). */
export const SUBMISSION_MAX_BYTES = 64 * 1024;

/**
 * A submission's values as sent: a flat object. Each value is checked against the form's own
 * schema by the submission validator, which is where field-level errors (422) come from.
 */
export const submissionCreateInput = z.object({
  form_id: idParam,
  // Taken as is (not rebuilt key by key), so a field called `__proto__` is just an unknown field.
  data: z.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'Must be an object of field values.',
  ),
});

export const createdSubmission = z
  .object({ id: z.string(), form_id: z.string(), created_at: timestamp })
  .meta({ id: 'CreatedSubmission' });

export const submissionValue = z.union([z.string(), z.number(), z.boolean()]);
/** A submission's values as a REST body or form post carries them: a flat object. */
export const submissionValues = z.record(z.string(), submissionValue);

export const submission = z.object({
  id: z.string(),
  form_id: z.string(),
  data: z.record(z.string(), submissionValue),
  source: z.enum(SUBMISSION_SOURCES),
  created_at: timestamp,
}).meta({ id: 'Submission' });

export const submissionListInput = z.object({ form_id: idParam, ...listInput.shape });
export const submissionGetInput = z.object({ form_id: idParam, submission_id: idParam });
