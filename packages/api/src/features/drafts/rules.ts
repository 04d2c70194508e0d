import type { FormReading, SubmissionFormReading } from '@lfk/db';
import { FIELD_MAX_LENGTH, type FieldType } from '@lfk/vocabulary';
import { ApiError, type ErrorDetail } from '../../errors.ts';
import { SUBMISSION_MAX_BYTES } from '../inbox/schemas.ts';
import { textProblem } from '../inbox/validation.ts';

/** The most characters any kept value may have: the longest a field takes (a textarea's). */
const MAX_TEXT = FIELD_MAX_LENGTH.textarea;

/** How long a draft of this form lives after a save: its own lifetime, never past the form's retention. */
export function draftLifetimeMs(form: FormReading): number {
  const days = Math.min(form.drafts?.ttl_days ?? 0, form.retentionDays ?? Number.POSITIVE_INFINITY);
  return days * 86_400_000;
}

/** A form keeps drafts only when its owner turned them on. */
export function assertKeepsDrafts(form: SubmissionFormReading): void {
  if (!form.drafts?.enabled) throw new ApiError('drafts_disabled');
}

/**
 * What a draft may hold of `data`: values of the form's own fields, as typed so far (a half-typed
 * address is kept: it is checked when sent), within the length the field takes. Never a file, never
 * a private field (refused, naming it); names the form does not have are dropped, as a page may
 * hold inputs of its own.
 */
export function draftValuesOf(form: FormReading, data: Record<string, string | boolean>): Record<string, string | boolean> {
  const kept: Record<string, string | boolean> = {};
  const details: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(data)) {
    const field = form.schema.find((candidate) => candidate.name === name);
    if (!field) continue;
    const path = `data.${name}`;
    if (field.private) details.push({ path, message: 'A private field is never kept in a draft.' });
    else if (field.type === 'file') details.push({ path, message: 'Files are not kept in a draft: they are sent with the submission.' });
    else if (typeof value === 'boolean' && field.type !== 'checkbox') details.push({ path, message: 'Must be text.' });
    else if (typeof value === 'string' && value.length > ((FIELD_MAX_LENGTH as Partial<Record<FieldType, number>>)[field.type as FieldType] ?? MAX_TEXT)) {
      details.push({ path, message: 'Longer than this field takes.' });
    } else {
      // Text as a submission takes it: whole characters, no control characters (but a textarea's layout).
      const problem = typeof value === 'string' ? textProblem(field, value) : null;
      if (problem) details.push({ path, message: problem });
      else kept[name] = value;
    }
  }
  if (details.length > 0) throw new ApiError('validation_failed', { message: 'The draft holds values it may not keep.', details });
  if (Buffer.byteLength(JSON.stringify(kept)) > SUBMISSION_MAX_BYTES) throw new ApiError('payload_too_large');
  return kept;
}
