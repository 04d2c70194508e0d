import type { Readable } from 'node:stream';
import { type FileReading, type StoredFileReading, SubmissionFile } from '@lfk/db';
import { combineRanges, parse as parseRange } from 'range-parser';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { formMemberProcedure, publicProcedure, router } from '../../trpc.ts';
import { fileDownloadInput, fileLinkInput } from './schemas.ts';
import { storageUnavailable } from './storing.ts';

/** A file to send: what it is, its bytes (or the requested range of them), and that range. */
export interface FileAnswer {
  file: FileReading;
  body: Readable;
  /** The bytes sent, for a `206 Partial Content`; null sends the whole file. */
  range: { start: number; end: number } | null;
}

/**
 * Opens a stored file for sending: the `Range` asked for when it is one satisfiable range (several,
 * or a malformed one, are answered with the whole file, as RFC 9110 allows), 416 when none of it
 * is within the file.
 */
async function open(ctx: Context, file: StoredFileReading, rangeHeader: string | undefined, missing: ApiError): Promise<FileAnswer> {
  let range: FileAnswer['range'] = null;
  if (rangeHeader !== undefined && file.size > 0) {
    const parsed = parseRange(file.size, rangeHeader);
    // Bit 1: malformed (ignored, the whole file goes); bit 2 with nothing left: none of it is in the file.
    if (parsed.type === 'bytes' && (parsed.code & 1) === 0) {
      if (parsed.ranges.length === 0) throw new ApiError('range_not_satisfiable', { headers: { 'content-range': `bytes */${file.size}` } });
      const combined = combineRanges(parsed.ranges);
      if (combined.length === 1) range = { start: combined[0]!.start, end: combined[0]!.end };
    }
  }
  let body: Readable | null;
  try {
    body = await ctx.services.files.storage.read(file.objectKey, range ?? undefined);
  } catch (err) {
    ctx.services.files.log.error({ err, storage: ctx.services.files.storage.kind }, 'could not read a stored file');
    throw storageUnavailable();
  }
  // A row whose object is gone (a storage emptied by hand): as if the file were not there.
  if (!body) throw missing;
  return { file, body, range };
}

export const filesRouter = router({
  download: formMemberProcedure
    .meta(
      rest(
        'GET /v1/forms/:form_id/submissions/:submission_id/files/:file_id',
        200,
        "A submission's file, as an attachment; `Range` is honoured (members' sessions only)",
        { transport: 'file', errors: ['file_not_found', 'file_quarantined', 'range_not_satisfiable', 'storage_unavailable'] },
      ),
    )
    .input(fileDownloadInput)
    .query(async ({ ctx, input }) => {
      const file = await ctx.em.getRepository(SubmissionFile).findInSubmission(ctx.form.id, input.submission_id, input.file_id);
      if (!file) throw new ApiError('file_not_found');
      if (file.status === 'quarantined') throw new ApiError('file_quarantined');
      return open(ctx, file, input.range, new ApiError('file_not_found'));
    }),

  // Unknown, expired, forged, revoked (its submission deleted) and quarantined are one identical 404.
  open: publicProcedure
    .meta(
      rest(
        'GET /v1/files/:token',
        200,
        'A file through a signed link from a webhook payload or an export: no session needed, until the link expires or the submission is deleted',
        { transport: 'file', errors: ['file_not_found', 'range_not_satisfiable', 'storage_unavailable'] },
      ),
    )
    .input(fileLinkInput)
    .query(async ({ ctx, input }) => {
      const fileId = ctx.services.files.links.fileOf(input.token, ctx.services.now());
      const file = fileId ? await ctx.em.getRepository(SubmissionFile).findStored(fileId) : null;
      if (file?.status !== 'stored') throw new ApiError('file_not_found');
      return open(ctx, file, input.range, new ApiError('file_not_found'));
    }),
});
