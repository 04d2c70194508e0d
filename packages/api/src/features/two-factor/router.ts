import { AuthChallenge, Passkey, RecoveryCode, Session, User } from '@lfk/db';
import { ApiError } from '../../errors.ts';
import { iso, isoOrNull } from '../../infrastructure/wire.ts';
import { rest } from '../../procedure-meta.ts';
import { router, sessionProcedure } from '../../trpc.ts';
import { signOutEverywhere } from '../sessions/sessions.ts';
import { factorsOf, recordFactorChange } from './factors.ts';
import { issueRecoveryCodes } from './recovery-codes.ts';
import { recoveryCodesIssued, totpConfirmed, totpConfirmInput, totpEnrolment, twoFactorStatus } from './schemas.ts';
import { newTotpSecret, otpauthUrl, stepOfCode } from './totp.ts';
import { totpSealContext } from './totp-codes.ts';

/** How long an authenticator app being set up waits for its first code. */
const ENROLMENT_TTL_MS = 15 * 60_000;

// An account's second factors, managed by the signed-in person (DESIGN §15). Adding or removing
// one is sudo mode's; confirming a setup is not (starting it was), so a slow first code is no retry.
export const twoFactorRouter = router({
  status: sessionProcedure.meta(rest('GET /v1/auth/two-factor', 200, "Your second factors: the authenticator app, and how many recovery codes are left"))
    .output(twoFactorStatus)
    .query(async ({ ctx }) => {
      const userId = ctx.session.userId;
      const totp = await ctx.em.getRepository(User).totpOf(userId);
      return {
        enabled: (await factorsOf(ctx.em, userId)).length > 0,
        totp: { enabled: totp !== null, enabled_at: isoOrNull(totp?.enabledAt) },
        recovery_codes: { remaining: await ctx.em.getRepository(RecoveryCode).remainingOf(userId) },
      };
    }),

  /**
   * Starts setting up an authenticator app: a new secret, on trial until a first code confirms it
   * (an earlier setup not confirmed is replaced). The account is unchanged until then.
   */
  startTotp: sessionProcedure.meta(rest('POST /v1/auth/two-factor/totp', 201,
      'Start setting up an authenticator app: its secret and QR code URL; confirm with a first code', { errors: ['totp_already_enabled'], sudo: true }))
    .output(totpEnrolment)
    .mutation(async ({ ctx }) => {
      const userId = ctx.session.userId;
      const users = ctx.em.getRepository(User);
      const user = await users.findOneOrFail({ id: userId }, { failHandler: () => new ApiError('invalid_session') });
      if (await users.totpOf(userId)) throw new ApiError('totp_already_enabled');
      const now = ctx.services.now();
      const secret = newTotpSecret();
      const expiresAt = new Date(now.getTime() + ENROLMENT_TTL_MS);
      await ctx.em.getRepository(AuthChallenge).replace(
        { purpose: 'totp_enrolment', userId, secretSealed: ctx.services.secretBox.seal(secret, totpSealContext(userId)), expiresAt },
        now,
      );
      return { secret, otpauth_url: otpauthUrl(secret, user.email), expires_at: iso(expiresAt) };
    }),

  /**
   * A first code confirms the setup: the app is a second factor from now on. The account's other
   * sessions, signed in without it, are signed out; the account's first factor comes with its
   * recovery codes.
   */
  confirmTotp: sessionProcedure.meta(rest('POST /v1/auth/two-factor/totp/confirm', 200,
      "Confirm the authenticator app with its first code: signing in asks for a code from now on, and the account's other sessions are signed out",
      { errors: ['enrolment_not_found', 'invalid_second_factor', 'totp_already_enabled'] }))
    .input(totpConfirmInput)
    .output(totpConfirmed)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const userId = ctx.session.userId;
      const codes = await ctx.em.transactional(async (em) => {
        const now = services.now();
        // The account's row lock: two confirmations at once enable once.
        const user = await em.getRepository(User).findOneForUpdateOrFail({ id: userId }, () => new ApiError('invalid_session'));
        if (user.totpEnabledAt) throw new ApiError('totp_already_enabled');
        const enrolment = await em.getRepository(AuthChallenge).findEnrolment(userId, 'totp_enrolment', now);
        if (!enrolment?.secretSealed) throw new ApiError('enrolment_not_found');
        const step = await stepOfCode(services.secretBox.open(enrolment.secretSealed, totpSealContext(userId)), input.code, now);
        if (step === null) throw new ApiError('invalid_second_factor', { message: 'The code is not right: check the app shows lfk and your address, and type the code it shows now.' });
        const firstFactor = (await factorsOf(em, userId)).length === 0;
        await em.getRepository(User).enableTotp(userId, enrolment.secretSealed, step, now);
        await em.getRepository(AuthChallenge).spend(enrolment.id);
        await signOutEverywhere(em, userId, now, ctx.session.sessionId);
        await em.getRepository(Session).reauthenticated(ctx.session.sessionId, now);
        const issued = firstFactor ? await issueRecoveryCodes(em, services.secretBox, userId, now) : null;
        await recordFactorChange(em, services, user, ctx.actor, { kind: 'totp_enabled' });
        return issued;
      });
      services.wakeMailer();
      return { recovery_codes: codes };
    }),

  /** Turns the authenticator app off; with it the last factor, the recovery codes go too. */
  disableTotp: sessionProcedure.meta(rest('DELETE /v1/auth/two-factor/totp', 204,
      'Turn the authenticator app off: with no passkey left, signing in asks for the password only', { errors: ['two_factor_not_enabled'], sudo: true }))
    .mutation(async ({ ctx }) => {
      const { services } = ctx;
      const userId = ctx.session.userId;
      await ctx.em.transactional(async (em) => {
        const user = await em.getRepository(User).findOneForUpdateOrFail({ id: userId }, () => new ApiError('invalid_session'));
        if (!(await em.getRepository(User).disableTotp(userId))) throw new ApiError('two_factor_not_enabled', { message: 'No authenticator app is set up for this account.' });
        if ((await em.getRepository(Passkey).countOf(userId)) === 0) await em.getRepository(RecoveryCode).replaceFor(userId, [], services.now());
        await recordFactorChange(em, services, user, ctx.actor, { kind: 'totp_disabled' });
      });
      services.wakeMailer();
    }),

  /** New recovery codes in place of the earlier ones, used or not. */
  regenerateRecoveryCodes: sessionProcedure.meta(rest('POST /v1/auth/two-factor/recovery-codes', 201,
      'Make new recovery codes: the earlier ones work no more', { errors: ['two_factor_not_enabled'], sudo: true }))
    .output(recoveryCodesIssued)
    .mutation(async ({ ctx }) => {
      const { services } = ctx;
      const userId = ctx.session.userId;
      const codes = await ctx.em.transactional(async (em) => {
        const user = await em.getRepository(User).findOneForUpdateOrFail({ id: userId }, () => new ApiError('invalid_session'));
        if ((await factorsOf(em, userId)).length === 0) throw new ApiError('two_factor_not_enabled');
        const issued = await issueRecoveryCodes(em, services.secretBox, userId, services.now());
        await recordFactorChange(em, services, user, ctx.actor, { kind: 'recovery_codes_regenerated' });
        return issued;
      });
      services.wakeMailer();
      return { recovery_codes: codes };
    }),
});
