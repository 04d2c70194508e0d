import { createCaller, type FileAnswer, refusal, restRoutes } from '@lfk/api';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError } from './errors.ts';
import { header, type ContextForRequest } from './request-context.ts';

/**
 * A file's `Content-Disposition`: always an attachment, never shown inline. The plain `filename`
 * keeps printable ASCII only (quotes and backslashes out); `filename*` carries the name as sent.
 */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // RFC 5987's value may not hold ' ( ) * either, which encodeURIComponent leaves as they are.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers of every file answer: an attachment, of the type its bytes were found to be, which
 * the browser may not guess at (`nosniff`), and which could run nothing even if opened (a sandbox
 * CSP with no sources). Cacheable by nobody: a member's download and a signed link alike.
 */
function send(reply: FastifyReply, answer: FileAnswer) {
  const { file, range, body } = answer;
  reply.headers({
    'content-type': file.contentType,
    'content-disposition': disposition(file.name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, no-store',
    'accept-ranges': 'bytes',
    etag: `"${file.sha256}"`,
  });
  if (range) {
    reply.code(206).headers({ 'content-range': `bytes ${range.start}-${range.end}/${file.size}`, 'content-length': String(range.end - range.start + 1) });
  } else {
    reply.code(200).header('content-length', String(file.size));
  }
  return reply.send(body);
}

/**
 * The two ways a stored file leaves lfk: a member's download
 * (`GET /v1/forms/{form_id}/submissions/{submission_id}/files/{file_id}`) and a signed link
 * (`GET /v1/files/{token}`). The procedures decide who may have which file and which bytes; this
 * streams them, with the headers that keep a browser from rendering them.
 */
export function registerFiles(app: FastifyInstance, contextFor: ContextForRequest): void {
  for (const route of restRoutes.filter((r) => r.transport === 'file')) {
    app.get(route.path, async (request, reply) => {
      const ctx = await contextFor(request, reply);
      const refused = refusal(ctx.auth);
      if (refused) return sendError(refused, request, reply);
      const params = request.params as Record<string, string>;
      const range = header(request, 'range');
      const caller = createCaller(ctx);
      const answer: FileAnswer =
        route.procedure === 'files.open'
          ? await caller.files.open({ token: params.token!, range })
          : await caller.files.download({ form_id: params.form_id!, submission_id: params.submission_id!, file_id: params.file_id!, range });
      return send(reply, answer);
    });
  }
}
