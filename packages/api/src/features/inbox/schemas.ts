import { CONTENT_SIGNALS, EXPORT_FORMATS, SPAM_REASONS, SUBMISSION_SOURCES, SUBMISSION_STATUSES } from '@lfk/vocabulary';
import { z } from 'zod';
import { hasControlCharacters, idParam, listInput, NO_CONTROL_CHARACTERS, storedSubmissionValues, timeInput, timestamp } from '../../common-schemas.ts';
import { submissionFile } from '../files/schemas.ts';

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
  draft: z
    .string()
    .optional()
    .describe("The draft this submission completes (its `lfp_…` resume token): deleted with the submission's commit. Over REST, the `Lfk-Draft` header."),
});

export const createdSubmission = z.object({ id: z.string(), form_id: z.string(), created_at: timestamp }).meta({ id: 'CreatedSubmission' });

export const submissionStatus = z.enum(SUBMISSION_STATUSES).meta({ id: 'SubmissionStatus' });

export const spamReasonEntry = z
  .object({
    code: z.enum(CONTENT_SIGNALS),
    message: z.string().describe('The reason, as a sentence a person reads.'),
  })
  .meta({ id: 'SpamReason' });

export const submission = z
  .object({
    id: z.string(),
    form_id: z.string(),
    data: storedSubmissionValues,
    files: z.array(submissionFile).describe('Its files, in the order they were sent (download each from `/files/{file_id}`).'),
    source: z.enum(SUBMISSION_SOURCES),
    status: submissionStatus,
    spam_reason: z
      .enum(SPAM_REASONS)
      .nullable()
      .describe(
        'Why it is spam: its honeypot was filled in, the captcha provider could not be reached, the content filter scored it above the ' +
          "form's threshold (`content`), or a member marked it.",
      ),
    spam_score: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe("The content filter's score, 0 (a person) to 1 (spam); null when the form's filter was off, or a trap caught it first."),
    spam_reasons: z
      .array(spamReasonEntry)
      .describe('What the content filter read in it that pointed to spam, each with a sentence; empty when nothing did or it was not read.'),
    created_at: timestamp,
  })
  .meta({ id: 'Submission' });

/** Which submissions a list or an export reads; the same filters for both. */
const submissionFilters = {
  status: submissionStatus.default('ok').describe('`ok` (the default) or `spam`.'),
  since: timeInput.optional().describe('Submissions from this time on.'),
  until: timeInput.optional().describe('Submissions before this time.'),
  q: z
    .string()
    .min(1)
    .max(200)
    .refine((value) => !hasControlCharacters(value), NO_CONTROL_CHARACTERS)
    .optional()
    .describe('Submissions with a value holding this text, whatever its case.'),
};

export const submissionListInput = z.object({ form_id: idParam, ...listInput.shape, ...submissionFilters });
export const submissionGetInput = z.object({ form_id: idParam, submission_id: idParam });

export const MAX_IDS = 100;

export const submissionsDeleteInput = z
  .strictObject({
    form_id: idParam,
    ids: z.array(idParam.max(100)).min(1).max(MAX_IDS, `At most ${MAX_IDS} ids at once.`).optional().describe(`Up to ${MAX_IDS} submission ids.`),
    before: timeInput.optional().describe('Every submission (spam too) that arrived before this time.'),
  })
  .refine((input) => (input.ids === undefined) !== (input.before === undefined), {
    message: 'Give either ids or before, not both.',
    path: ['ids'],
  })
  .meta({ description: 'Either `ids` or `before`, exactly one of them.' });

export const submissionsDeleted = z.object({ deleted: z.int().describe('How many submissions were deleted.') }).meta({ id: 'SubmissionsDeleted' });

/** A query string's `true` or `false`, or a JSON boolean. */
const queryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()) as unknown as z.ZodType<
  boolean,
  boolean | 'true' | 'false'
>;

export const submissionExportInput = z.object({
  form_id: idParam,
  format: z.enum(EXPORT_FORMATS).default('csv').describe('`csv` (the default) or `jsonl` (JSON Lines).'),
  bom: queryBoolean.default(false).describe('Start the file with a UTF-8 byte order mark, which Excel needs to read UTF-8.'),
  ...submissionFilters,
});
