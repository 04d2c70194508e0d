import { AuthChallenge, Passkey, type PasskeyReading, RecoveryCode, Session, User } from '@lfk/db';
import { MAX_PASSKEYS } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { iso, isoOrNull } from '../../infrastructure/wire.ts';
import { rest } from '../../procedure-meta.ts';
import { router, sessionProcedure } from '../../trpc.ts';
import { signOutEverywhere } from '../sessions/sessions.ts';
import { factorsOf, recordFactorChange } from './factors.ts';
import { issueRecoveryCodes } from './recovery-codes.ts';
import { registrationOptions, verifiedRegistration } from './passkeys.ts';
import {
  passkey,
  passkeyAdded,
  passkeyAddInput,
  passkeyIdInput,
  passkeyRegistrationOptions,
  passkeyRenameInput,
  recoveryCodesIssued,
  totpConfirmed,
  totpConfirmInput,
  totpEnrolment,
  twoFactorStatus,
} from './schemas.ts';
import { CHALLENGE_TTL_MS } from './sign-in-challenges.ts';
import { newTotpSecret, otpauthUrl, stepOfCode } from './totp.ts';
import { totpSealContext } from './totp-codes.ts';

/** How long an authenticator app being set up waits for its first code. */
const ENROLMENT_TTL_MS = 15 * 60_000;

const passkeyToWire = (p: PasskeyReading) => ({ id: p.id, name: p.name, created_at: iso(p.createdAt), last_used_at: isoOrNull(p.lastUsedAt) });

/**
 * A factor is in force for the account from now on (in `em`'s transaction, the account's row
 * locked). Its first one signs its other sessions out, which signed in without it, so every live
 * session of an account with a second factor has passed one; and comes with its recovery codes.
 */
async function factorAdded(em: EntityManager, ctx: Pick<Context, 'services'> & { session: { userId: string; sessionId: string } }, firstFactor: boolean) {
  const now = ctx.services.now();
  await em.getRepository(Session).reauthenticated(ctx.session.sessionId, now);
  if (!firstFactor) return null;
  await signOutEverywhere(em, ctx.session.userId, now, ctx.session.sessionId);
  return issueRecoveryCodes(em, ctx.services.secretBox, ctx.session.userId, now);
}

/** A factor is gone: with the last one, the recovery codes go too (they would be a second factor of nothing). */
async function factorRemoved(em: EntityManager, userId: string, now: Date) {
  if ((await factorsOf(em, userId)).length === 0) await em.getRepository(RecoveryCode).replaceFor(userId, [], now);
}

// An account's second factors, managed by the signed-in person (DESIGN §15). Adding or removing
// one is sudo mode's; confirming a setup is not (starting it was), so a slow first code is no retry.
export const twoFactorRouter = router({
  status: sessionProcedure
    .meta(rest('GET /v1/auth/two-factor', 200, 'Your second factors: the authenticator app, your passkeys, and how many recovery codes are left'))
    .output(twoFactorStatus)
    .query(async ({ ctx }) => {
      const userId = ctx.session.userId;
      const [totp, passkeys, remaining] = await Promise.all([
        ctx.em.getRepository(User).totpOf(userId),
        ctx.em.getRepository(Passkey).listOf(userId),
        ctx.em.getRepository(RecoveryCode).remainingOf(userId),
      ]);
      return {
        enabled: totp !== null || passkeys.length > 0,
        totp: { enabled: totp !== null, enabled_at: isoOrNull(totp?.enabledAt) },
        passkeys: passkeys.map(passkeyToWire),
        recovery_codes: { remaining },
      };
    }),

  /**
   * Starts setting up an authenticator app: a new secret, on trial until a first code confirms it
   * (an earlier setup not confirmed is replaced). The account is unchanged until then.
   */
  startTotp: sessionProcedure
    .meta(
      rest('POST /v1/auth/two-factor/totp', 201, 'Start setting up an authenticator app: its secret and QR code URL; confirm with a first code', {
        errors: ['totp_already_enabled'],
        sudo: true,
      }),
    )
    .output(totpEnrolment)
    .mutation(async ({ ctx }) => {
      const userId = ctx.session.userId;
      const users = ctx.em.getRepository(User);
      const user = await users.findOneOrFail({ id: userId }, { failHandler: () => new ApiError('invalid_session') });
      if (await users.totpOf(userId)) throw new ApiError('totp_already_enabled');
      const now = ctx.services.now();
      const secret = newTotpSecret();
      const expiresAt = new Date(now.getTime() + ENROLMENT_TTL_MS);
      await ctx.em
        .getRepository(AuthChallenge)
        .replace({ purpose: 'totp_enrolment', userId, secretSealed: ctx.services.secretBox.seal(secret, totpSealContext(userId)), expiresAt }, now);
      return { secret, otpauth_url: otpauthUrl(secret, user.email), expires_at: iso(expiresAt) };
    }),

  /** A first code confirms the setup: the app is a second factor from now on (see factorAdded). */
  confirmTotp: sessionProcedure
    .meta(
      rest(
        'POST /v1/auth/two-factor/totp/confirm',
        200,
        "Confirm the authenticator app with its first code: signing in asks for a code from now on (a first factor signs the account's other sessions out)",
        { errors: ['enrolment_not_found', 'invalid_second_factor', 'totp_already_enabled'] },
      ),
    )
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
        if (step === null)
          throw new ApiError('invalid_second_factor', {
            message: 'The code is not right: check the app shows lfk and your address, and type the code it shows now.',
          });
        const firstFactor = (await factorsOf(em, userId)).length === 0;
        await em.getRepository(User).enableTotp(userId, enrolment.secretSealed, step, now);
        await em.getRepository(AuthChallenge).spend(enrolment.id);
        const issued = await factorAdded(em, ctx, firstFactor);
        await recordFactorChange(em, services, user, ctx.actor, { kind: 'totp_enabled' });
        return issued;
      });
      services.wakeMailer();
      return { recovery_codes: codes };
    }),

  /** Turns the authenticator app off; with it the last factor, the recovery codes go too. */
  disableTotp: sessionProcedure
    .meta(
      rest('DELETE /v1/auth/two-factor/totp', 204, 'Turn the authenticator app off: with no passkey left, signing in asks for the password only', {
        errors: ['two_factor_not_enabled'],
        sudo: true,
      }),
    )
    .mutation(async ({ ctx }) => {
      const { services } = ctx;
      const userId = ctx.session.userId;
      await ctx.em.transactional(async (em) => {
        const user = await em.getRepository(User).findOneForUpdateOrFail({ id: userId }, () => new ApiError('invalid_session'));
        if (!(await em.getRepository(User).disableTotp(userId)))
          throw new ApiError('two_factor_not_enabled', { message: 'No authenticator app is set up for this account.' });
        await factorRemoved(em, userId, services.now());
        await recordFactorChange(em, services, user, ctx.actor, { kind: 'totp_disabled' });
      });
      services.wakeMailer();
    }),

  /** New recovery codes in place of the earlier ones, used or not. */
  regenerateRecoveryCodes: sessionProcedure
    .meta(
      rest('POST /v1/auth/two-factor/recovery-codes', 201, 'Make new recovery codes: the earlier ones work no more', {
        errors: ['two_factor_not_enabled'],
        sudo: true,
      }),
    )
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

  /** The options for a new passkey: the browser makes it with them, then it is added below. */
  passkeyOptions: sessionProcedure
    .meta(
      rest('POST /v1/auth/two-factor/passkeys/options', 200, 'Start adding a passkey: the options for `navigator.credentials.create()` (5 minutes)', {
        errors: ['passkey_limit_reached'],
        sudo: true,
      }),
    )
    .output(passkeyRegistrationOptions)
    .mutation(async ({ ctx }) => {
      const userId = ctx.session.userId;
      const user = await ctx.em.getRepository(User).findOneOrFail({ id: userId }, { failHandler: () => new ApiError('invalid_session') });
      if ((await ctx.em.getRepository(Passkey).countOf(userId)) >= MAX_PASSKEYS) throw new ApiError('passkey_limit_reached');
      const options = await registrationOptions(ctx.em, ctx.services, user);
      const now = ctx.services.now();
      await ctx.em
        .getRepository(AuthChallenge)
        .replace({ purpose: 'passkey_registration', userId, webauthnChallenge: options.challenge, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) }, now);
      return { options };
    }),

  /**
   * Adds the passkey the browser made with those options: checked against their challenge (used
   * once), this origin and RP ID. A second factor from now on (see factorAdded), and a sign-in.
   */
  addPasskey: sessionProcedure
    .meta(
      rest('POST /v1/auth/two-factor/passkeys', 201, 'Add the passkey made with the options: a second factor, and a sign-in without a password', {
        errors: ['enrolment_not_found', 'invalid_second_factor', 'passkey_limit_reached', 'passkey_already_registered'],
      }),
    )
    .input(passkeyAddInput)
    .output(passkeyAdded)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const userId = ctx.session.userId;
      const result = await ctx.em.transactional(async (em) => {
        const now = services.now();
        const user = await em.getRepository(User).findOneForUpdateOrFail({ id: userId }, () => new ApiError('invalid_session'));
        const enrolment = await em.getRepository(AuthChallenge).findEnrolment(userId, 'passkey_registration', now);
        if (!enrolment?.webauthnChallenge || !(await em.getRepository(AuthChallenge).spend(enrolment.id))) throw new ApiError('enrolment_not_found');
        const credential = await verifiedRegistration(services, input.credential as never, enrolment.webauthnChallenge);
        if (!credential)
          throw new ApiError('invalid_second_factor', {
            message: 'The passkey could not be checked: it was not made for this site, or with the options given. Start again.',
          });
        const passkeys = em.getRepository(Passkey);
        if (await passkeys.findByCredentialId(credential.credentialId)) throw new ApiError('passkey_already_registered');
        if ((await passkeys.countOf(userId)) >= MAX_PASSKEYS) throw new ApiError('passkey_limit_reached');
        const firstFactor = (await factorsOf(em, userId)).length === 0;
        const added = await passkeys.add(userId, { ...credential, name: input.name }, now);
        const issued = await factorAdded(em, ctx, firstFactor);
        await recordFactorChange(em, services, user, ctx.actor, { kind: 'passkey_added', name: input.name });
        return { added, issued };
      });
      services.wakeMailer();
      return { passkey: passkeyToWire(result.added), recovery_codes: result.issued };
    }),

  renamePasskey: sessionProcedure
    .meta(rest('PATCH /v1/auth/two-factor/passkeys/:passkey_id', 200, 'Rename one of your passkeys', { errors: ['passkey_not_found'] }))
    .input(passkeyRenameInput)
    .output(passkey)
    .mutation(async ({ ctx, input }) => {
      const renamed = await ctx.em.getRepository(Passkey).rename(ctx.session.userId, input.passkey_id, input.name);
      if (!renamed) throw new ApiError('passkey_not_found');
      return passkeyToWire(renamed);
    }),

  /** Removes a passkey: it signs in no more. With it the last factor, the recovery codes go too. */
  removePasskey: sessionProcedure
    .meta(
      rest('DELETE /v1/auth/two-factor/passkeys/:passkey_id', 204, 'Remove one of your passkeys: it signs in no more', {
        errors: ['passkey_not_found'],
        sudo: true,
      }),
    )
    .input(passkeyIdInput)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const userId = ctx.session.userId;
      await ctx.em.transactional(async (em) => {
        const user = await em.getRepository(User).findOneForUpdateOrFail({ id: userId }, () => new ApiError('invalid_session'));
        const name = await em.getRepository(Passkey).remove(userId, input.passkey_id);
        if (name === null) throw new ApiError('passkey_not_found');
        await factorRemoved(em, userId, services.now());
        await recordFactorChange(em, services, user, ctx.actor, { kind: 'passkey_removed', name });
      });
      services.wakeMailer();
    }),
});
