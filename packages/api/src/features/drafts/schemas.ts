import { z } from 'zod';
import { email, idParam, timestamp } from '../../common-schemas.ts';
import { httpUrl } from '../forms/schemas.ts';
import { listInput } from '../../common-schemas.ts';
import { MAX_IDS } from '../inbox/schemas.ts';

/** What a visitor typed, by field name: text as typed (perhaps not valid yet), a checkbox as true or false. */
export const draftValues = z
  .record(z.string().max(100), z.union([z.string(), z.boolean()]))
  .describe("The form's fields the visitor has filled so far, by name: never a file, never a private field.");

export const draftStartInput = z.strictObject({ form_id: idParam, data: draftValues });
export const draftTokenInput = z.object({ form_id: idParam, resume_token: z.string().describe('The `lfp_…` token the draft was started with.') });
export const draftSaveInput = z.strictObject({ form_id: idParam, resume_token: z.string(), data: draftValues });
export const draftListInput = listInput.extend({ form_id: idParam });
export const draftEmailInput = z.strictObject({
  form_id: idParam,
  resume_token: z.string(),
  email: email.describe('Where the visitor wants the link.'),
  page_url: httpUrl.describe("The page the link opens again: the one asking, on the request's origin (the draft's token is added after `#`)."),
});
export const draftLinkSent = z
  .object({ expires_at: timestamp.describe('Until when the link finds the draft, unless it is saved again.') })
  .meta({ id: 'DraftLinkSent' });
export const draftsDeleteInput = z.strictObject({
  form_id: idParam,
  ids: z.array(idParam.max(100)).min(1).max(MAX_IDS, `At most ${MAX_IDS} ids at once.`).describe(`Up to ${MAX_IDS} draft ids.`),
});
export const draftsDeleted = z
  .object({ deleted: z.int().describe('How many drafts were deleted (an id of none, or of another form, counts nothing).') })
  .meta({ id: 'DraftsDeleted' });

export const draft = z
  .object({
    id: z.string(),
    data: z.record(z.string(), z.union([z.string(), z.boolean()])),
    created_at: timestamp,
    updated_at: timestamp,
    expires_at: timestamp.describe('When it is deleted unless saved again; each save starts its lifetime again.'),
  })
  .meta({ id: 'Draft' });

/** A new draft: its resume token is shown this once, for the page to keep. */
export const startedDraft = draft
  .extend({ resume_token: z.string().describe('`lfp_…`: what the page keeps to read and save the draft again, and to send it as a submission.') })
  .meta({ id: 'StartedDraft' });
