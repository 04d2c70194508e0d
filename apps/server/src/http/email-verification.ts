import { asApiError, createCaller, restRoutes, type Services, toWireError } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { htmlPage } from './html-page.ts';
import { contextForRequest } from './request-context.ts';

/** `GET /v1/email-verifications/{token}`: the link in a verification email, answered with a page. */
export function registerEmailVerification(app: FastifyInstance, services: Services, publicUrl: string): void {
  const route = restRoutes.find((r) => r.procedure === 'emailVerifications.confirm')!;
  app.get(route.path, async (request, reply) => {
    const { token } = request.params as { token: string };
    reply.type('text/html; charset=utf-8');
    try {
      const ctx = await contextForRequest(services, publicUrl, request, reply);
      const verified = await createCaller(ctx).emailVerifications.confirm({ token });
      return reply.code(200).send(
        htmlPage('Address verified', [
          `${verified.email} will now receive the submissions of the form "${verified.form_name}".`,
          'You can close this page.',
        ]),
      );
    } catch (error) {
      if (!asApiError(error)) request.log.error({ err: error }, 'unexpected error');
      const wire = toWireError(error, String(request.id));
      return reply.code(wire.status).send(
        htmlPage(
          'This link does not work',
          [wire.body.error.message, `Request id: ${wire.body.error.request_id}`],
          [],
          wire.body.error.code,
        ),
      );
    }
  });
}
