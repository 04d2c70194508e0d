import { FILE_STATUSES } from '@lfk/vocabulary';
import { z } from 'zod';
import { idParam } from '../../common-schemas.ts';

/** A file sent with a submission, as its `files` list and the submission's members see it. */
export const submissionFile = z
  .object({
    id: z.string(),
    field: z.string().describe("The file field it was sent in; the field's value in `data` lists its files' ids."),
    name: z.string().describe('The name it was sent with, cleaned of paths and control characters: for display only.'),
    size: z.int().describe('In bytes.'),
    content_type: z.string().describe('The type its bytes show (sniffed), not the one it was sent with.'),
    sha256: z.string().describe('The SHA-256 of its bytes, in hex.'),
    status: z.enum(FILE_STATUSES).describe('`quarantined`: the malware scanner found malware; it cannot be downloaded.'),
    malware: z.string().nullable().describe('What the malware scanner found, for a quarantined file; else null.'),
  })
  .meta({ id: 'SubmissionFile' });

/** The same with a signed link that needs no session (webhook payloads, exports); none for a quarantined file. */
export const linkedFile = submissionFile
  .extend({
    url: z.string().nullable().describe('A signed download link, no session needed; it expires, and dies with the submission. Null for a quarantined file.'),
  })
  .meta({ id: 'LinkedSubmissionFile' });

/** A `Range` header as sent: judged against the file's size by the procedure. */
const range = z.string().max(200).optional();

export const fileDownloadInput = z.object({ form_id: idParam, submission_id: idParam, file_id: idParam, range });
export const fileLinkInput = z.object({ token: z.string().min(1).max(200), range });
