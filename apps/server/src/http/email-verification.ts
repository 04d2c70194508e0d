import { createCaller, restRoutes } from '@lfk/api';
import type { FastifyInstance } from 'fastify';
import { registerButtonLink } from './button-links.ts';
import { htmlPage } from './html-page.ts';
import type { ContextForRequest } from './request-context.ts';

/** The link in a verification email: its page's "Verify" button verifies the address. */
export function registerEmailVerification(app: FastifyInstance, contextFor: ContextForRequest): Promise<void> {
  return registerButtonLink(app, contextFor, {
    path: restRoutes.find((r) => r.procedure === 'emailVerifications.preview')!.path,
    open: (context, token) => createCaller(context).emailVerifications.preview({ token }),
    // The action is relative (the token itself): it posts to this very link, behind any path prefix a proxy adds.
    openedPage: (link, token) =>
      htmlPage(
        'Verify your address',
        [link.form ? `Send the submissions of the form "${link.form.name}" to ${link.email}?` : `Confirm ${link.email} as the address of your lfk account?`],
        {
          button: { label: 'Verify', action: token },
        },
      ),
    press: (context, token) => createCaller(context).emailVerifications.confirm({ token }),
    pressedPage: (verified) =>
      htmlPage('Address verified', [
        verified.form
          ? `${verified.email} will now receive the submissions of the form "${verified.form.name}".`
          : `${verified.email} is confirmed as the address of your lfk account.`,
        'You can close this page.',
      ]),
  });
}
