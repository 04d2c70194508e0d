import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorPage, sendErrorPage } from './errors.ts';
import type { ContextForRequest } from './request-context.ts';

/** What a button's form post sends: taken, never read. */
const BUTTON_TYPE = 'application/x-www-form-urlencoded';
/** What a mail program's one-click post (RFC 8058) may send besides. */
const ONE_CLICK_TYPE = 'multipart/form-data';
/** The button posts an empty form; the token in the path is the whole input. */
export const BUTTON_BODY_LIMIT = 1024;
const BROKEN_LINK = apiErrorPage('This link does not work');

const onError = (error: unknown, request: FastifyRequest, reply: FastifyReply) => sendErrorPage(error, request, reply, BROKEN_LINK);

/**
 * A link emailed to a person, whose token is its path's last part. Opening it (GET, and the HEAD
 * fastify derives from it) only shows a page with a button, because link checkers and mail
 * scanners open links too; the button's plain form post acts. The post needs no CSRF check: it
 * reads no session, and only the token, which the address's owner was sent, can act for it.
 */
export async function registerButtonLink<Opened, Pressed>(
  app: FastifyInstance,
  contextFor: ContextForRequest,
  link: {
    path: string;
    open(context: Awaited<ReturnType<ContextForRequest>>, token: string): Promise<Opened>;
    openedPage(opened: Opened, token: string): string;
    press(context: Awaited<ReturnType<ContextForRequest>>, token: string): Promise<Pressed>;
    pressedPage(pressed: Pressed): string;
    /** Whether a mail program may post it in one click (RFC 8058), as a multipart form too. */
    oneClick?: boolean;
  },
): Promise<void> {
  const page = (reply: FastifyReply, body: string) => reply.code(200).type('text/html; charset=utf-8').send(body);
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(link.oneClick ? [BUTTON_TYPE, ONE_CLICK_TYPE] : BUTTON_TYPE, { parseAs: 'string' }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.get(link.path, { errorHandler: onError }, async (request, reply) => {
      const { token } = request.params as { token: string };
      return page(reply, link.openedPage(await link.open(await contextFor(request, reply), token), token));
    });
    scope.post(link.path, { errorHandler: onError, bodyLimit: BUTTON_BODY_LIMIT }, async (request, reply) => {
      const { token } = request.params as { token: string };
      return page(reply, link.pressedPage(await link.press(await contextFor(request, reply), token)));
    });
  });
}
