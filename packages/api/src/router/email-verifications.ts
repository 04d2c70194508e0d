import { EmailVerification, Form } from '@lfk/db';
import { LockMode } from '@mikro-orm/core';
import { sha256 } from '../credentials/secrets.ts';
import { isWellFormedVerificationToken } from '../credentials/tokens.ts';
import { ApiError } from '../errors.ts';
import { emailVerificationInput, emailVerified } from '../schemas/email-verifications.ts';
import { publicProcedure, router } from '../trpc.ts';

const invalidLink = () =>
  new ApiError('not_found', { message: 'This verification link is not valid: it was already used, replaced by a newer one, or has expired.' });

export const emailVerificationsRouter = router({
  /** Follows a link from a verification email: single use, 24 hours, the newest link only. */
  confirm: publicProcedure
    .input(emailVerificationInput)
    .output(emailVerified)
    .mutation(async ({ ctx, input }) => {
      if (!isWellFormedVerificationToken(input.token)) throw invalidLink();
      const now = new Date();
      return ctx.em.transactional(async (em) => {
        const tokenHash = sha256(input.token);
        const unlocked = await em.findOne(EmailVerification, { tokenHash }, { fields: ['form'] });
        if (!unlocked) throw invalidLink();
        // The form's row first, then the link's: the order a form's update takes them in, so a
        // confirmation racing a notify_email change waits for it (no deadlock) and then sees it.
        const found = await em.findOneOrFail(Form, { id: unlocked.form.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        const link = await em.findOne(EmailVerification, { tokenHash }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
        if (!link || link.usedAt !== null || link.expiresAt <= now) throw invalidLink();
        // The address changed since this link was sent: it proves nothing about the new one.
        if (found.notifyEmail !== link.email) throw invalidLink();
        link.usedAt = now;
        found.notifyEmailVerified = true;
        return { form_id: found.id, form_name: found.name, email: link.email };
      });
    }),
});
