import { constants, openAsBlob } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { LfkFileUpload, LfkSubmissionValue } from '@lfk/client';
import { usageError } from '../errors.ts';
import { io } from '../terminal/io.ts';

/** What a file from standard input is sent as: it has no name of its own. */
const STDIN_NAME = 'stdin';

/** Standard input, whole: a pipe has no size to stream against, and one file from it is small enough to hold. */
async function readStdin(): Promise<Blob> {
  const chunks: Buffer[] = [];
  for await (const chunk of io().stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return new Blob(chunks);
}

/**
 * One `--file field=path`: a Blob read from disk as the request sends it (`fs.openAsBlob`), never
 * into memory; `-` is standard input. A path that is missing, not a file or unreadable is a usage
 * error naming the flag, before any request.
 */
async function openFile(flag: string, path: string): Promise<LfkFileUpload> {
  if (path === '-') return { name: STDIN_NAME, data: await readStdin() };
  const named = `--file ${flag}`;
  let found: import('node:fs').Stats;
  try {
    found = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError('unreadable_file', `${named}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? (error as Error).message})`}.`);
  }
  if (!found.isFile()) throw usageError('unreadable_file', `${named}: not a file.`);
  try {
    await access(path, constants.R_OK);
  } catch {
    throw usageError('unreadable_file', `${named}: cannot read it (permission denied).`);
  }
  return { name: basename(path), data: await openAsBlob(path) };
}

/** Repeated `--file field=path` as each field's files, in the order given (a field that takes several repeats the flag). */
export async function filesFromFlags(pairs: string[] | undefined): Promise<Record<string, LfkFileUpload[]>> {
  const files: Record<string, LfkFileUpload[]> = Object.create(null);
  if (!pairs?.length) return files;
  if (pairs.filter((pair) => pair.endsWith('=-')).length > 1) throw usageError('invalid_file', 'Only one --file can read standard input (-).');
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) {
      throw usageError(
        'invalid_file',
        `--file ${JSON.stringify(pair)} is not field=path.`,
        'Write --file cv=./cv.pdf (- reads standard input); repeat it for each file.',
      );
    }
    const field = pair.slice(0, at);
    files[field] = [...(files[field] ?? []), await openFile(pair, pair.slice(at + 1))];
  }
  return files;
}

/**
 * Values as a multipart body carries them: text, several for one field as repeated parts. A
 * `--data-json` object or null cannot travel beside files.
 */
export function multipartValues(values: Record<string, unknown>): Record<string, LfkSubmissionValue | LfkSubmissionValue[]> {
  const scalar = (value: unknown): value is LfkSubmissionValue => ['string', 'number', 'boolean'].includes(typeof value);
  const out: Record<string, LfkSubmissionValue | LfkSubmissionValue[]> = Object.create(null);
  for (const [name, value] of Object.entries(values)) {
    if (scalar(value) || (Array.isArray(value) && value.every(scalar))) out[name] = value;
    else throw usageError('invalid_data', `--data-json: ${name} cannot be sent with files: values beside files are text, numbers, booleans or lists of them.`);
  }
  return out;
}
