import { createCaller, restRoutes } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { sendErrorPage } from './errors.ts';
import { htmlPage } from './html-page.ts';
import type { ContextForRequest } from './request-context.ts';

/** `GET /v1/email-verifications/{token}`: the link in a verification email, answered with a page. */
export function registerEmailVerification(app: FastifyInstance, contextFor: ContextForRequest): void {
  const route = restRoutes.find((r) => r.procedure === 'emailVerifications.confirm')!;
  app.get(route.path, async (request, reply) => {
    const { token } = request.params as { token: string };
    try {
      const ctx = await contextFor(request, reply);
      const verified = await createCaller(ctx).emailVerifications.confirm({ token });
      return reply.code(200).type('text/html; charset=utf-8').send(
        htmlPage('Address verified', [
          `${verified.email} will now receive the submissions of the form "${verified.form_name}".`,
          'You can close this page.',
        ]),
      );
    } catch (error) {
      return sendErrorPage(error, request, reply, { title: 'This link does not work' });
    }
  });
}
