import { Form, PasswordReset, User } from '@lfk/db';
import { hashPassword } from '../../credentials/passwords.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { generatePasswordResetToken, isWellFormedPasswordResetToken } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import type { Services } from '../../context.ts';
import { enqueueEmail, insertEmail } from '../../infrastructure/outbox.ts';
import { rest } from '../../procedure-meta.ts';
import { perIpProcedure, publicProcedure, router } from '../../trpc.ts';
import { passwordChangedEmail } from '../auth/emails.ts';
import { passwordResetEmail } from './emails.ts';
import { takeBackUnconfirmedGrants } from './reclaim.ts';
import { signOutEverywhere } from '../sessions/sessions.ts';
import {
  passwordResetBody,
  passwordResetInput,
  passwordResetLink,
  passwordResetRequested,
  passwordResetRequestInput,
  passwordResetTokenInput,
} from './schemas.ts';

export const PASSWORD_RESET_TTL_MS = 3600_000;
const REQUESTED = 'If an account uses this address, a link to reset its password is on its way. It works for one hour.';

/** A new link for the account at `email`, in place of any earlier one, and its email; nothing without an account. */
async function sendResetLink(services: Services, email: string): Promise<void> {
  const now = services.now();
  const { token, hash } = generatePasswordResetToken();
  const sent = await services.db.fork().transactional(async (em) => {
    if (!(await em.getRepository(PasswordReset).replaceFor(email, hash, new Date(now.getTime() + PASSWORD_RESET_TTL_MS), now))) return false;
    await insertEmail(em, {
      ...passwordResetEmail({ to: email, link: `${services.publicUrl}/v1/auth/password-resets/${token}`, validMinutes: PASSWORD_RESET_TTL_MS / 60_000 }),
      secret: { token, box: services.secretBox },
    });
    return true;
  });
  if (sent) services.wakeMailer();
}

const invalidLink = () =>
  new ApiError('not_found', { message: 'This reset link is not valid: it was already used, replaced by a newer one, or has expired. Ask for a new one.' });

export const passwordResetsRouter = router({
  /**
   * Sends a reset link to the address if an account uses it, answering the same either way, in the
   * same time: whether there is an account is found out after the answer, in the background. Past
   * the address's allowance nothing is sent or replaced, so a flood neither fills the owner's
   * inbox nor kills the link they already have; the answer stays the same.
   */
  request: perIpProcedure('password_resets')
    .meta(
      rest('POST /v1/auth/password-resets', 202, 'Email a password reset link to the address, if an account uses it; the same answer for every address', {
        errors: ['rate_limited'],
      }),
    )
    .input(passwordResetRequestInput)
    .output(passwordResetRequested)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const overAllowance = await services.rateLimits.record('password_reset_emails', input.email);
      if (!overAllowance) services.background.run('password reset email', () => sendResetLink(services, input.email), `password reset:${input.email}`);
      return { message: REQUESTED };
    }),

  /** What a link would reset, changing nothing (opening it is also what mail scanners do). */
  open: publicProcedure
    .meta(
      rest('GET /v1/auth/password-resets/:token', 200, 'Open a reset link: a page with a form for the new password; GET and HEAD change nothing', {
        transport: 'password_reset',
        errors: ['not_found'],
      }),
    )
    .input(passwordResetTokenInput)
    .output(passwordResetLink)
    .query(async ({ ctx, input }) => {
      if (!isWellFormedPasswordResetToken(input.token)) throw invalidLink();
      const link = await ctx.em.getRepository(PasswordReset).read(sha256(input.token));
      if (!link || link.expiresAt <= ctx.services.now()) throw invalidLink();
      return { email: link.email };
    }),

  /**
   * Sets the new password: the link works once (of two uses at once, one wins), and every session
   * of the account is signed out. The link proves the address reads its mail, so it is verified
   * too; the first time, what the account handed out before is taken back (see reclaim.ts).
   */
  reset: publicProcedure
    .meta(
      rest('POST /v1/auth/password-resets/:token', 204, 'Set a new password with a reset link: every session of the account is signed out', {
        transport: 'password_reset',
        errors: ['not_found'],
        body: passwordResetBody,
      }),
    )
    .input(passwordResetInput)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      if (!isWellFormedPasswordResetToken(input.token)) throw invalidLink();
      const tokenHash = sha256(input.token);
      const resets = ctx.em.getRepository(PasswordReset);
      // Looked at before the slow hash, so a wrong link costs the server nothing.
      const seen = await resets.read(tokenHash);
      if (!seen || seen.expiresAt <= services.now()) throw invalidLink();
      const passwordHash = await hashPassword(input.password);
      const { takenBack, verifiedForms } = await ctx.em.transactional(async (em) => {
        const now = services.now();
        const link = await em.getRepository(PasswordReset).spend(tokenHash);
        if (!link || link.expiresAt <= now) throw invalidLink();
        const users = em.getRepository(User);
        await users.setPassword(link.userId, passwordHash);
        const firstConfirmation = await users.markEmailVerified(link.userId, now);
        const takenBack = firstConfirmation ? await takeBackUnconfirmedGrants(em, link.userId, now) : undefined;
        const verifiedForms = await em.getRepository(Form).verifyNotifyEmailOfMember(link.userId, link.email);
        await signOutEverywhere(em, link.userId, now);
        enqueueEmail(em, passwordChangedEmail({ to: link.email, how: 'reset', ...(takenBack ? { takenBack } : {}) }));
        return { takenBack, verifiedForms };
      });
      // This process forgets the revoked keys and the verified forms at once; the others are told by the database.
      for (const hash of takenBack?.keyHashes ?? []) services.apiKeyCache.forget(hash);
      for (const formId of verifiedForms) services.formCache.forget(formId);
      services.wakeMailer();
    }),
});
