import { Readable } from 'node:stream';
import { createCaller, EXPORT_CONTENT_TYPES, refusal, restRoutes } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.ts';
import type { ContextForRequest } from './request-context.ts';

/**
 * `GET /v1/forms/{form_id}/submissions/export`: the procedure decides who may export and what,
 * and yields the file chunk by chunk; this sends each chunk as it comes, as an attachment.
 * Everything the procedure refuses is refused before the first byte, as JSON.
 *
 * Back-pressure end to end: the stream asks the procedure for the next chunk only when the socket
 * has taken the last one (a reader that stops reading holds about one batch here, the rest in the
 * kernel's socket buffers), and a reader that goes away destroys the stream, which returns the
 * procedure's generator: it ends, giving back the exporter's place.
 */
export function registerSubmissionExport(app: FastifyInstance, contextFor: ContextForRequest): void {
  const route = restRoutes.find((r) => r.transport === 'export')!;
  app.get(route.path, async (request, reply) => {
    const ctx = await contextFor(request, reply);
    const refused = refusal(ctx.auth);
    if (refused) return sendError(refused, request, reply);
    const { form_id: formId } = request.params as { form_id: string };
    const query = request.query as Record<string, unknown>;
    const { format, chunks } = await createCaller(ctx).submissions.export({ ...query, form_id: formId } as never);
    // The first chunk before the headers: what fails while the first rows are read is still
    // answered as an error, not as a 200 cut short.
    const first = await chunks[Symbol.asyncIterator]().next();
    // The stream reads the rest from the same generator; destroyed, it returns it.
    const file = Readable.from(chunks);
    if (!first.done) file.push(first.value);
    return reply
      .code(200)
      .headers({
        'content-type': EXPORT_CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="${formId}-submissions.${format}"`,
        'cache-control': 'no-store',
      })
      .send(file);
  });
}
