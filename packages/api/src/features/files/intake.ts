import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { StoredField } from '@lfk/db';
import { FILE_FIELD_LIMITS } from '@lfk/vocabulary';
import { ApiError } from '../../errors.ts';
import { accepts, isPlainText, SNIFF_BYTES, sniffContentType, TextScan } from './content-types.ts';
import { cleanFileName } from './file-names.ts';
import { sentValues } from '../../infrastructure/sent-values.ts';
import type { UploadLimits, UploadPart, UploadSource } from './upload-source.ts';

/** A file received into a spool file of this process, checked against its field. */
export interface SpooledFile {
  field: string;
  name: string;
  size: number;
  sha256: string;
  contentType: string;
  path: string;
}

/** A multipart body as received: its text values (a name sent twice becomes a list) and its files. */
export interface ReceivedUpload {
  values: Record<string, string | string[]>;
  files: SpooledFile[];
}

/** What the server allows whatever the form says (`LFK_MAX_FILE_SIZE`, `LFK_MAX_SUBMISSION_SIZE`), and where spool files go. */
export interface IntakeSettings {
  maxFileSize: number;
  maxSubmissionSize: number;
  spoolDir: string;
  /** Each spool file written down (fsync) as it is closed: what the storage it goes to takes (`takesFlushedFiles`). */
  flush?: boolean;
}

/** A file field's limits, as this server applies them. */
export interface FileRule {
  maxSize: number;
  accept: readonly string[] | undefined;
  maxFiles: number;
}

/** The limits of each of the schema's file fields: its own, never above the server's. */
export function fileRulesOf(schema: readonly StoredField[], settings: IntakeSettings): Map<string, FileRule> {
  return new Map(
    schema
      .filter((field) => field.type === 'file')
      .map((field) => [
        field.name,
        {
          maxSize: Math.min(field.max_size ?? FILE_FIELD_LIMITS.defaultMaxSize, settings.maxFileSize),
          accept: field.accept,
          maxFiles: field.multiple ? (field.max_files ?? FILE_FIELD_LIMITS.defaultMaxFiles) : 1,
        },
      ]),
  );
}

const MiB = 1024 * 1024;
const sizeWords = (bytes: number) => (bytes % MiB === 0 ? `${bytes / MiB} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

const refuse = (code: 'invalid_submission' | 'file_too_large' | 'submission_too_large' | 'file_type_not_accepted', field: string, message: string) =>
  new ApiError(code, { details: [{ path: field.slice(0, 100), message }] });

/**
 * Reads a multipart body part by part, each file straight into a spool file as it arrives (hashed,
 * counted and its first bytes kept to sniff its type), so memory never holds more than a chunk of
 * it. Refuses as soon as a limit is crossed — a file over its field's `max_size`, the files over
 * `LFK_MAX_SUBMISSION_SIZE`, a file in a field that takes none or one too many, an empty file, a
 * type the field does not accept — and then removes every spool file it made. The caller removes
 * the spool files of a body it took (`discardSpool`), whatever becomes of it.
 */
export async function receiveUpload(
  source: UploadSource,
  schema: readonly StoredField[],
  settings: IntakeSettings,
  valueLimits: { count: number; bytes: number },
): Promise<ReceivedUpload> {
  const rules = fileRulesOf(schema, settings);
  const limits: UploadLimits = {
    fileSize: Math.max(0, ...[...rules.values()].map((r) => r.maxSize)) + 1,
    files: [...rules.values()].reduce((sum, r) => sum + r.maxFiles, 0) + 1,
    values: valueLimits.count,
    valueSize: valueLimits.bytes,
  };
  const values: [string, string][] = [];
  const files: SpooledFile[] = [];
  const perField = new Map<string, number>();
  let total = 0;
  try {
    for await (const part of source.parts(limits)) {
      if (part.kind === 'value') {
        values.push([part.field, part.value]);
        continue;
      }
      const rule = rules.get(part.field);
      if (!rule) throw refuse('invalid_submission', part.field, 'Is not a file field: it takes no file.');
      const count = (perField.get(part.field) ?? 0) + 1;
      if (count > rule.maxFiles)
        throw refuse('invalid_submission', part.field, rule.maxFiles === 1 ? 'Takes one file only.' : `Takes at most ${rule.maxFiles} files.`);
      const spooled = await spool(
        part,
        rule,
        settings,
        () => total,
        (bytes) => {
          total += bytes;
        },
      );
      if (!spooled) continue;
      perField.set(part.field, count);
      files.push(spooled);
    }
  } catch (error) {
    await discardSpool(files);
    throw error;
  }
  return { values: sentValues(values), files };
}

async function spool(
  part: Extract<UploadPart, { kind: 'file' }>,
  rule: FileRule,
  settings: IntakeSettings,
  total: () => number,
  add: (bytes: number) => void,
): Promise<SpooledFile | null> {
  const path = join(settings.spoolDir, `${randomBytes(16).toString('hex')}.part`);
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600, flush: settings.flush ?? false });
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  // Sniffed as soon as the first bytes are in: a file of the wrong type is refused without reading the rest.
  let contentType: string | null = null;
  // A file whose first bytes are plain text is read to its end for markup (or bytes that are not text).
  let scan: TextScan | null = null;
  const check = (type: string) => {
    contentType = type;
    if (!accepts(rule.accept, type)) {
      throw refuse('file_type_not_accepted', part.field, `Is ${type}, which this field does not accept (it takes ${rule.accept!.join(', ')}).`);
    }
  };
  const judge = async (whole: boolean) => {
    const first = Buffer.concat(head);
    check(await sniffContentType(first, whole, part.declaredType));
    if (!whole && isPlainText(contentType!)) {
      scan = new TextScan(first);
      scan.push(first);
    }
  };
  try {
    for await (const chunk of part.chunks) {
      size += chunk.length;
      if (size > rule.maxSize) throw refuse('file_too_large', part.field, `Must be at most ${sizeWords(rule.maxSize)}.`);
      add(chunk.length);
      if (total() > settings.maxSubmissionSize) {
        throw refuse('submission_too_large', part.field, `The files of one submission must be at most ${sizeWords(settings.maxSubmissionSize)} together.`);
      }
      hash.update(chunk);
      let rest = chunk;
      if (headBytes < SNIFF_BYTES) {
        const taken = Math.min(chunk.length, SNIFF_BYTES - headBytes);
        head.push(chunk.subarray(0, taken));
        headBytes += taken;
        rest = chunk.subarray(taken);
        if (headBytes === SNIFF_BYTES) await judge(false);
      }
      if (scan && rest.length > 0) {
        (scan as TextScan).push(rest);
        if ((scan as TextScan).kind !== 'text/plain') check((scan as TextScan).kind);
      }
      // `once` takes its 'error' listener off again when 'drain' comes: one per wait would pile up.
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    if (size === 0) {
      // A file input left empty sends a part with no name and no bytes: nothing was chosen.
      if (part.filename === '') {
        await rm(path, { force: true });
        return null;
      }
      throw refuse('invalid_submission', part.field, 'Is empty.');
    }
    if (contentType === null) await judge(true);
    else if (scan) {
      (scan as TextScan).end();
      if ((scan as TextScan).kind !== 'text/plain') check((scan as TextScan).kind);
    }
    return { field: part.field, name: cleanFileName(part.filename), size, sha256: hash.digest('hex'), contentType: contentType!, path };
  } catch (error) {
    // Closed before removed: a file still being opened would otherwise appear after the removal.
    out.destroy();
    if (!out.closed) await once(out, 'close');
    await rm(path, { force: true });
    throw error;
  }
}

/** Removes the spool files of a received body (those already moved into storage are gone: no error). */
export async function discardSpool(files: readonly SpooledFile[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file.path, { force: true })));
}
