import type { LfkClientOptions } from './client.ts';
import { LfkResponseError } from './errors.ts';
import type { RouterOutputs } from './router.ts';

/** A file sent with a submission, as `submissions.get` and `submissions.list` describe it (`status`, `malware`, `sha256`…). */
export type LfkSubmissionFile = RouterOutputs['submissions']['get']['files'][number];

/** The submission `submitWithFiles` made: as `submissions.create` answers. */
export type LfkCreatedSubmission = RouterOutputs['submissions']['create'];

/**
 * A file to send: a `File` (its own name and type), a `Blob` (sent as `blob`), or a `Blob` with the
 * name and type to send it with. The server judges the type by the bytes, not by the one given.
 */
export type LfkFileUpload = Blob | { name: string; type?: string; data: Blob };

/** A value as a multipart body carries it: text. Several for one field are sent as repeated parts. */
export type LfkSubmissionValue = string | number | boolean;

export interface LfkSubmissionWithFiles {
  /** The form's other fields' values. */
  data?: Record<string, LfkSubmissionValue | readonly LfkSubmissionValue[]>;
  /** Each file field's file, or files for a field that takes several (`multiple`). */
  files: Record<string, LfkFileUpload | readonly LfkFileUpload[]>;
  /** Sent as `Idempotency-Key`: a retry is answered from the first submission, its files stored once. */
  idempotencyKey?: string;
}

type PlainOptions = Pick<LfkClientOptions, 'baseUrl' | 'fetch' | 'userAgent'>;

const base = (options: PlainOptions) => options.baseUrl.replace(/\/+$/, '');

function headersOf(options: PlainOptions, token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  return headers;
}

/** The multipart body: values first, then files, each in the order given. */
function multipartBody(data: LfkSubmissionWithFiles['data'], files: LfkSubmissionWithFiles['files']): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(data ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, String(one));
  }
  for (const [field, given] of Object.entries(files)) {
    for (const file of (Array.isArray(given) ? given : [given]) as LfkFileUpload[]) {
      if (file instanceof Blob) {
        body.append(field, file, (file as Partial<File>).name || 'blob');
      } else {
        const typed = file.type === undefined || file.type === file.data.type ? file.data : new Blob([file.data], { type: file.type });
        body.append(field, typed, file.name);
      }
    }
  }
  return body;
}

/**
 * A submission with files: `POST /v1/forms/{form_id}/submissions` as `multipart/form-data` (tRPC
 * carries no files). With `apiKey`, as the key; with no credentials, as a browser would (the form's
 * allowed origins decide). The files are streamed from their `Blob`s (`fs.openAsBlob` reads one
 * from disk as it is sent). lfk's refusals (`file_type_not_accepted`, `file_too_large`,
 * `invalid_submission`…) throw an `LfkResponseError`, which `lfkErrorOf` reads.
 */
export async function submitWithFiles(
  options: Pick<LfkClientOptions, 'baseUrl' | 'apiKey' | 'fetch' | 'userAgent'>,
  formId: string,
  submission: LfkSubmissionWithFiles,
): Promise<LfkCreatedSubmission> {
  const headers = headersOf(options, options.apiKey);
  headers.accept = 'application/json';
  if (submission.idempotencyKey !== undefined) headers['idempotency-key'] = submission.idempotencyKey;
  const response = await (options.fetch ?? globalThis.fetch)(`${base(options)}/v1/forms/${encodeURIComponent(formId)}/submissions`, {
    method: 'POST',
    headers,
    body: multipartBody(submission.data, submission.files),
  });
  if (response.status !== 201) throw await LfkResponseError.from(response);
  return (await response.json()) as LfkCreatedSubmission;
}

/** A stored file as it arrives: its bytes, and what its headers say of it. */
export interface LfkFileDownload {
  /** The bytes (of the range asked for, if one was), streamed as they arrive. */
  body: ReadableStream<Uint8Array>;
  /** The name it was sent with, cleaned of paths: never use it as a path without checking it yourself. */
  name: string;
  /** The type its bytes were found to be. */
  contentType: string;
  /** The whole file's size in bytes, whatever range was asked for. */
  size: number;
  /** The bytes `body` holds, when a range was asked for and answered (206); else null. */
  range: { start: number; end: number } | null;
}

/** The name in `Content-Disposition`: `filename*` (UTF-8) when given, else `filename`. */
function nameOf(disposition: string | null): string {
  if (!disposition) return '';
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // Not percent-encoded UTF-8: fall back to the plain name.
    }
  }
  return /filename="([^"]*)"/i.exec(disposition)?.[1] ?? '';
}

async function fileAnswer(response: Response): Promise<LfkFileDownload> {
  if ((response.status !== 200 && response.status !== 206) || !response.body) throw await LfkResponseError.from(response);
  const { headers } = response;
  const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers.get('content-range') ?? '');
  return {
    body: response.body,
    name: nameOf(headers.get('content-disposition')),
    contentType: headers.get('content-type') ?? 'application/octet-stream',
    size: contentRange ? Number(contentRange[3]) : Number(headers.get('content-length') ?? 0),
    range: response.status === 206 && contentRange ? { start: Number(contentRange[1]), end: Number(contentRange[2]) } : null,
  };
}

export interface LfkFileRequest {
  formId: string;
  submissionId: string;
  fileId: string;
  /** A `Range` header's value, e.g. `bytes=0-1023` or `bytes=-512`: part of the file (206). */
  range?: string;
}

/**
 * One file of a submission, from `GET /v1/forms/{form_id}/submissions/{submission_id}/files/{file_id}`
 * (members' sessions only): its body as a stream, with its name, type and size. A quarantined file is
 * refused (`file_quarantined`), as is a range outside it (`range_not_satisfiable`): an
 * `LfkResponseError`, before any byte.
 */
export async function downloadFile(
  options: Pick<LfkClientOptions, 'baseUrl' | 'sessionToken' | 'fetch' | 'userAgent'>,
  { formId, submissionId, fileId, range }: LfkFileRequest,
): Promise<LfkFileDownload> {
  const path = [formId, 'submissions', submissionId, 'files', fileId].map(encodeURIComponent).join('/');
  const headers = headersOf(options, options.sessionToken);
  if (range !== undefined) headers.range = range;
  return fileAnswer(await (options.fetch ?? globalThis.fetch)(`${base(options)}/v1/forms/${path}`, { headers }));
}

/**
 * A signed file link (`…/v1/files/{token}`, from a webhook payload, an export or `lfk listen`): the
 * link is the credential, so nothing else is sent. An expired link, or one whose submission is gone,
 * throws an `LfkResponseError` (`file_not_found`).
 */
export async function openFileLink(url: string, options: Pick<LfkClientOptions, 'fetch' | 'userAgent'> & { range?: string } = {}): Promise<LfkFileDownload> {
  const headers: Record<string, string> = {};
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  if (options.range !== undefined) headers.range = options.range;
  return fileAnswer(await (options.fetch ?? globalThis.fetch)(url, { headers }));
}
