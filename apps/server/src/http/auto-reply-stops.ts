import { createCaller, restRoutes } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { registerButtonLink } from './button-links.ts';
import { htmlPage } from './html-page.ts';
import type { ContextForRequest } from './request-context.ts';

/**
 * The stop link in each auto-reply (`List-Unsubscribe`): its page's button, or a mail program's
 * one-click post, stops the workspace's auto-replies to the address.
 */
export function registerAutoReplyStops(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  return registerButtonLink(app, contextFor, {
    path: restRoutes.find((r) => r.procedure === 'autoReplyStops.preview')!.path,
    oneClick: true,
    open: (context, token) => createCaller(context).autoReplyStops.preview({ token }),
    openedPage: (stop, token) =>
      htmlPage('Stop automatic replies', [`Send no more automatic replies from the forms of ${stop.workspace.name} to ${stop.email}?`], {
        button: { label: 'Stop them', action: token },
      }),
    press: (context, token) => createCaller(context).autoReplyStops.confirm({ token }),
    pressedPage: (stop) =>
      htmlPage('Automatic replies stopped', [
        `The forms of ${stop.workspace.name} will send no more automatic replies to ${stop.email}.`,
        'You can close this page.',
      ]),
  });
}
