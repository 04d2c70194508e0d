import { createCaller, restRoutes } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { type ContextForRequest, header } from './request-context.ts';

/** GitHub sends JSON; the signature is over the body's bytes, so they are handed on untouched. */
const JSON_TYPE = 'application/json';

/**
 * `POST /v1/secret-scanning/reports`: the body as received and the two signature headers go to
 * the procedure, which checks the signature and decides everything else. Errors take the usual
 * path (the app's error handler), in lfk's one error shape.
 */
export async function registerSecretScanning(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  const route = restRoutes.find((r) => r.transport === 'signed_report')!;
  await app.register(async (scope) => {
    scope.removeContentTypeParser(JSON_TYPE);
    scope.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(route.path, async (request, reply) => {
      const ctx = await contextFor(request, reply);
      const body = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
      const labels = await createCaller(ctx).secretScanning.report({
        body,
        key_identifier: header(request, 'github-public-key-identifier'),
        signature: header(request, 'github-public-key-signature'),
      });
      return reply.code(route.status).send(labels);
    });
  });
}
