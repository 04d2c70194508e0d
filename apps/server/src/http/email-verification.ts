import { createCaller, restRoutes } from '@lfk/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorPage, sendErrorPage } from './errors.ts';
import { htmlPage } from './html-page.ts';
import type { ContextForRequest } from './request-context.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The button posts an empty form; the token in the path is the whole input. */
export const BUTTON_BODY_LIMIT = 1024;
const BROKEN_LINK = apiErrorPage('This link does not work');

function page(reply: FastifyReply, body: string): FastifyReply {
  return reply.code(200).type('text/html; charset=utf-8').send(body);
}

const onError = (error: unknown, request: FastifyRequest, reply: FastifyReply) => sendErrorPage(error, request, reply, BROKEN_LINK);

/**
 * The link in a verification email. Opening it (GET, and the HEAD fastify derives from it) only
 * shows a page with a "Verify" button, because link checkers and mail scanners open links too;
 * the button's plain form post verifies. The post needs no CSRF check: it reads no session, and
 * only the token, which the address's owner was sent, can verify that address.
 */
export async function registerEmailVerification(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  const [opened, pressed] = (['emailVerifications.preview', 'emailVerifications.confirm'] as const).map(
    (procedure) => restRoutes.find((r) => r.procedure === procedure)!,
  );
  await app.register(async (scope) => {
    // The button sends a form post (or a script, nothing): the only bodies taken, and neither is read.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));

    scope.get(opened!.path, { errorHandler: onError }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const link = await createCaller(await contextFor(request, reply)).emailVerifications.preview({ token });
      return page(
        reply,
        // The action is relative (the token itself): it posts to this very link, behind any path prefix a proxy adds.
        htmlPage('Verify your address', [link.form ? `Send the submissions of the form "${link.form.name}" to ${link.email}?` : `Confirm ${link.email} as the address of your lfk account?`], {
          button: { label: 'Verify', action: token },
        }),
      );
    });

    scope.post(pressed!.path, { errorHandler: onError, bodyLimit: BUTTON_BODY_LIMIT }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const verified = await createCaller(await contextFor(request, reply)).emailVerifications.confirm({ token });
      return page(
        reply,
        htmlPage('Address verified', [
          verified.form
            ? `${verified.email} will now receive the submissions of the form "${verified.form.name}".`
            : `${verified.email} is confirmed as the address of your lfk account.`,
          'You can close this page.',
        ]),
      );
    });
  });
}
