import { EmailVerification, Form, type IForm } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { sha256 } from '../../credentials/secrets.ts';
import { isWellFormedVerificationToken } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { emailVerificationInput, emailVerified } from './schemas.ts';
import { publicProcedure, router } from '../../trpc.ts';

const invalidLink = () =>
  new ApiError('not_found', { message: 'This verification link is not valid: it was already used, replaced by a newer one, or has expired.' });

/**
 * The link behind `token` and its form, if the link still works: unused, unexpired, the newest of
 * its form (older ones are deleted), for the address the form has now. `lock` holds both rows until
 * the transaction ends, so that two posts of one link verify once.
 */
async function workingLink(em: EntityManager, token: string, lock: boolean, now: Date) {
  if (!isWellFormedVerificationToken(token)) throw invalidLink();
  const tokenHash = sha256(token);
  let link = await em.getRepository(EmailVerification).findByTokenHash(tokenHash);
  if (!link) throw invalidLink();
  let form: IForm;
  if (lock) {
    // The form's row first, then the link's: the order a form's update takes them in, so a
    // confirmation racing a notify_email change waits for it (no deadlock) and then sees it.
    form = await em.getRepository(Form).findOneForUpdateOrFail({ id: link.form.id });
    link = await em.getRepository(EmailVerification).lockByTokenHash(tokenHash);
    if (!link) throw invalidLink();
  } else {
    form = await em.getRepository(Form).findOneOrFail({ id: link.form.id });
  }
  if (link.usedAt !== null || link.expiresAt <= now) throw invalidLink();
  // The address changed since this link was sent: it proves nothing about the new one.
  if (form.notifyEmail !== link.email) throw invalidLink();
  return { link, form };
}

export const emailVerificationsRouter = router({
  /**
   * What a link would verify, changing nothing: opening a link (GET, HEAD) is also what link
   * checkers and mail scanners do, so only the page's button (`confirm`) verifies.
   */
  preview: publicProcedure.meta(rest('GET /v1/email-verifications/:token', 200,
      'Open a verification link: a small HTML page with a "Verify" button; GET and HEAD change nothing', { transport: 'html', errors: ['not_found'] }))
    .input(emailVerificationInput)
    .output(emailVerified)
    .query(async ({ ctx, input }) => {
      const { link, form } = await workingLink(ctx.em, input.token, false, ctx.services.now());
      return { form_id: form.id, form_name: form.name, email: link.email };
    }),

  /** Verifies the address a link was sent to: single use, 24 hours, the newest link only. */
  confirm: publicProcedure.meta(rest('POST /v1/email-verifications/:token', 200,
      'The "Verify" button: marks the address verified (the link works once) and answers a small HTML page', { transport: 'html', errors: ['not_found'] }))
    .input(emailVerificationInput)
    .output(emailVerified)
    .mutation(async ({ ctx, input }) => {
      return ctx.em.transactional(async (em) => {
        const now = ctx.services.now();
        const { link, form } = await workingLink(em, input.token, true, now);
        link.usedAt = now;
        form.notifyEmailVerified = true;
        return { form_id: form.id, form_name: form.name, email: link.email };
      });
    }),
});
