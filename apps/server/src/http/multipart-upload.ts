import { ApiError, type UploadLimits, type UploadPart, type UploadSource } from '@lfk/api';
import type { FastifyRequest } from 'fastify';
import type { EventEmitter } from 'node:events';
import { Readable, type Writable } from 'node:stream';

const TOO_MANY_PARTS = 'The multipart body has too many parts.';

/** What `@fastify/multipart` (busboy) throws, as lfk answers it: limits as 413 or 422, a broken body as 400. */
function answerFor(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return new ApiError('invalid_submission', { message: 'The submission carries more files than its form takes.' });
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiError('payload_too_large', { message: TOO_MANY_PARTS });
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError('file_too_large');
    case 'FST_PROTO_VIOLATION':
      return new ApiError('invalid_request', { message: 'A multipart part has a name this server does not take.' });
    default:
      // A missing or bad boundary, a malformed part header, a body cut short: the body cannot be read.
      return new ApiError('invalid_request', { message: 'The multipart/form-data body is malformed or was cut short.' });
  }
}

/** A file part's bytes, its stream's failures (the body cut short) answered as lfk's errors. */
async function* answered(stream: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (error) {
    throw answerFor(error);
  }
}

/**
 * Why busboy will skip a part without a word, or null. Its header parser stops at a line holding a
 * bare CR or LF (a name or file name with a line break, which no browser sends: they escape them),
 * so the part arrives with no `Content-Disposition`, and busboy drops a part without a `form-data`
 * one. A dropped file must never become a success without it: such a part refuses the whole body
 * as unreadable (400); what its field was cannot be read either.
 */
function skippedPartAnswer(header: Record<string, string[] | undefined>): ApiError | null {
  const disposition = header['content-disposition']?.[0];
  if (disposition !== undefined && /^\s*form-data\s*(;|$)/i.test(disposition) && !/[\r\n]/.test(disposition)) return null;
  return new ApiError('invalid_request', {
    message:
      'A part of the multipart body cannot be read: its header has a line break (CR or LF) inside a name or file name, ' +
      'or no form-data Content-Disposition. Nothing was stored.',
  });
}

/**
 * Watches every part the multipart parser opens, those busboy then skips too: @fastify/multipart
 * pipes the request into busboy, whose parser (Dicer) is the one place every part shows up.
 */
function watchParts(raw: Readable, onSkipped: (answer: ApiError) => void): void {
  raw.pipe = function pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    delete (raw as Partial<Readable>).pipe;
    const parser = (destination as unknown as { _parser?: { parser?: EventEmitter } })._parser?.parser;
    parser?.on('part', (part: EventEmitter) => {
      part.once('header', (header: Record<string, string[] | undefined>) => {
        const answer = skippedPartAnswer(header);
        if (answer) onSkipped(answer);
      });
    });
    return Readable.prototype.pipe.call(raw, destination as unknown as Writable, options) as unknown as T;
  };
}

/**
 * A `multipart/form-data` submission's body, read through `@fastify/multipart` (busboy) only when
 * the procedure asks: parts in order, each file a stream the intake spools as it arrives.
 */
export function multipartUpload(request: FastifyRequest): UploadSource {
  return {
    async *parts(limits: UploadLimits): AsyncIterable<UploadPart> {
      let skipped: ApiError | null = null;
      watchParts(request.raw, (answer) => {
        skipped ??= answer;
      });
      const parts = request.parts({
        limits: {
          fileSize: limits.fileSize,
          files: limits.files,
          fields: limits.values,
          fieldSize: limits.valueSize,
          fieldNameSize: 200,
          parts: limits.files + limits.values,
          headerPairs: 20,
        },
      });
      try {
        for await (const part of parts) {
          if (skipped) throw skipped;
          if (part.type === 'file') {
            yield { kind: 'file', field: part.fieldname, filename: part.filename ?? '', declaredType: part.mimetype ?? '', chunks: answered(part.file) };
          } else {
            if (part.valueTruncated || part.fieldnameTruncated)
              throw new ApiError('payload_too_large', { message: 'A value of the multipart body is too large.' });
            yield { kind: 'value', field: part.fieldname, value: typeof part.value === 'string' ? part.value : String(part.value) };
          }
        }
        if (skipped) throw skipped;
      } catch (error) {
        throw answerFor(error);
      }
    },
  };
}
