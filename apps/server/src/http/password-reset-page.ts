import { asApiError, createCaller, restRoutes } from '@lfk/api';
import { MIN_PASSWORD_LENGTH } from '@lfk/vocabulary';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorPage, sendError, sendErrorPage } from './errors.ts';
import { htmlPage } from './html-page.ts';
import type { ContextForRequest } from './request-context.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A password of 1,024 characters, each percent-encoded UTF-8, and the username beside it. */
export const RESET_BODY_LIMIT = 16 * 1024;
const BROKEN_LINK = apiErrorPage('This link does not work', 'Ask for a new one from the sign-in page ("Forgot password?").');

function page(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/** The page's form: it posts to this very link (the token, relative), behind any path prefix a proxy adds. */
function resetForm(token: string, email: string, problem?: string): string {
  return htmlPage('Choose a new password', [`For the lfk account ${email}.`, ...(problem ? [problem] : [])], {
    passwordForm: {
      action: token,
      label: `New password (at least ${MIN_PASSWORD_LENGTH} characters)`,
      minLength: MIN_PASSWORD_LENGTH,
      username: email,
      submit: 'Set password',
    },
  });
}

const isFormPost = (request: FastifyRequest) => (request.headers['content-type'] ?? '').toLowerCase().startsWith(FORM_TYPE);

/**
 * The link in a password reset email. Opening it (GET, HEAD) shows a form and changes nothing;
 * the form's post sets the password and answers a page, and a JSON post (a script, the CLI) is
 * answered 204. The post needs no session and no CSRF check: the token is the whole credential.
 */
export async function registerPasswordResetPage(app: FastifyInstance, contextFor: ContextForRequest, signInUrl: string): Promise<void> {
  const [opened, posted] = (['passwordResets.open', 'passwordResets.reset'] as const).map((procedure) => restRoutes.find((r) => r.procedure === procedure)!);
  await app.register(async (scope) => {
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => {
      const fields = new URLSearchParams(body as string);
      done(null, { password: fields.get('password') ?? '' });
    });

    scope.get(opened!.path, { errorHandler: (error, request, reply) => sendErrorPage(error, request, reply, BROKEN_LINK) }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const link = await createCaller(await contextFor(request, reply)).passwordResets.open({ token });
      return page(reply, 200, resetForm(token, link.email));
    });

    const onPostError = async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      if (!isFormPost(request)) return sendError(error, request, reply);
      const known = asApiError(error);
      const { token } = request.params as { token: string };
      // A password the rules refuse: the same form again, saying why (the link is still good).
      const problem = known?.apiCode === 'invalid_request' ? known.details?.find((d) => d.path === 'password') : undefined;
      if (problem) {
        const link = await createCaller(await contextFor(request, reply))
          .passwordResets.open({ token })
          .catch(() => null);
        if (link)
          return page(
            reply,
            400,
            resetForm(token, link.email, `The password was not changed: it ${problem.message.charAt(0).toLowerCase()}${problem.message.slice(1)}`),
          );
      }
      return sendErrorPage(error, request, reply, BROKEN_LINK);
    };

    scope.post(posted!.path, { errorHandler: onPostError, bodyLimit: RESET_BODY_LIMIT }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const body = (request.body ?? {}) as Record<string, unknown>;
      await createCaller(await contextFor(request, reply)).passwordResets.reset({ ...body, token } as { token: string; password: string });
      if (!isFormPost(request)) return reply.code(204).send();
      return page(
        reply,
        200,
        htmlPage('Password changed', ['Your password is changed, and every session of your account is signed out.'], {
          link: { label: 'Sign in', href: signInUrl },
        }),
      );
    });
  });
}
