import { AuditEvent, AuthChallenge, EmailVerification, Membership, Passkey, RecoveryCode, Session, User, Workspace } from '@lfk/db';
import { sha256 } from '../../credentials/secrets.ts';
import { isWellFormedChallengeToken } from '../../credentials/tokens.ts';
import { CHALLENGE_TTL_MS, secondFactorRequired } from '../two-factor/sign-in-challenges.ts';
import { assertionOptions, challengeSignedBy, verifiedAssertion } from '../two-factor/passkeys.ts';
import { takeTotpCode } from '../two-factor/totp-codes.ts';
import { spendRecoveryCode } from '../two-factor/recovery-codes.ts';
import { recordFactorChange } from '../two-factor/factors.ts';
import { passkeyAssertionOptions, passkeyLoginInput, reauthenticateInput, secondFactorInput } from '../two-factor/schemas.ts';
import { hashPassword, verifyPassword } from '../../credentials/passwords.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { accountDeleteInput, loginInput, loginOutput, passwordChangeInput, sessionOutput, signupInput, signupOutput } from './schemas.ts';
import { workspaceToWire } from '../workspaces/serializers.ts';
import { userToWire } from './serializers.ts';
import { openAccount } from './open-account.ts';
import { cancelInvitationsSentBy } from '../invitations/invitations.ts';
import { signOutEverywhere, startSession } from '../sessions/sessions.ts';
import { sessionsProcedures } from '../sessions/router.ts';
import { confirmPassword } from './password-check.ts';
import { passwordChangedEmail } from './emails.ts';
import { allowsUnasked, enqueueEmail, spendUnasked } from '../../infrastructure/outbox.ts';
import { retryingDeadlocks } from '../../infrastructure/deadlocks.ts';
import { assertResendAllowed, maskEmail, sendAccountVerification } from '../email-verification/sending.ts';
import { verificationSent } from '../email-verification/schemas.ts';
import { perIpProcedure, router, sessionProcedure } from '../../trpc.ts';

/** A passkey's assertion that does not verify, in words about passkeys (the code's are the default). */
const passkeyRefused = () =>
  new ApiError('invalid_second_factor', {
    message:
      'That passkey could not be checked: it is not registered here for you, it was made for another site, or it was already used. ' +
      'Try again, or use another way.',
  });

export const authRouter = router({
  signup: perIpProcedure('login')
    .meta(
      rest('POST /v1/auth/signup', 201, 'Create an account, its personal workspace and a session', {
        errors: ['rate_limited', 'signup_disabled', 'email_taken'],
      }),
    )
    .input(signupInput)
    .output(signupOutput)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.services.allowSignup) throw new ApiError('signup_disabled');
      const passwordHash = await hashPassword(input.password);
      // A taken address is found by the unique index, races included (409 email_taken).
      // Past the address's allowance of unasked mail, the account is made without the email: the
      // person asks for a link again later (a sign-up is never refused for what others sent there).
      // Counted in the transaction that makes the account: a sign-up refused as email_taken spends nothing.
      const result = await ctx.em.transactional(async (em) => {
        const opened = openAccount(em, { email: input.email, name: input.name, passwordHash }, ctx.services.now());
        const unasked = await allowsUnasked(ctx.services.rateLimits, input.email, em);
        if (unasked) await sendAccountVerification(em, ctx.services, opened.user, unasked);
        return opened;
      });
      ctx.services.wakeMailer();
      ctx.cookies.set(result.session.token, result.session.expiresAt);
      return {
        user: userToWire(result.user),
        workspace: workspaceToWire(result.workspace, 'owner'),
        session_token: result.session.token,
      };
    }),

  login: perIpProcedure('login')
    .meta(
      rest('POST /v1/auth/login', 200, 'Sign in and get a session token; an account with a second factor answers a challenge to complete with it', {
        errors: ['rate_limited', 'invalid_credentials', 'second_factor_required'],
      }),
    )
    .input(loginInput)
    .output(loginOutput)
    .mutation(async ({ ctx, input }) => {
      // Guesses at one account, from however many addresses, share one budget (given back when the
      // password is right). Unknown emails are counted alike: the answers never tell them apart.
      const user = await ctx.services.rateLimits.guess('login_failures', input.email.toLowerCase(), async () => {
        const found = await ctx.em.getRepository(User).findForLogin(input.email);
        return (await verifyPassword(found?.passwordHash ?? null, input.password)) ? found : null;
      });
      if (!user) throw new ApiError('invalid_credentials');
      // A second factor's guesses spend the same budget again, so the password is given back only to be asked for the factor.
      const secondFactor = await secondFactorRequired(ctx.em, ctx.services, user.id);
      if (secondFactor) throw secondFactor;
      const session = startSession(ctx.em, user.id, ctx.services.now(), { ip: ctx.ip, userAgent: ctx.userAgent ?? null });
      await ctx.em.flush();
      ctx.cookies.set(session.token, session.expiresAt);
      return { user: userToWire(user), session_token: session.token, expires_at: session.expiresAt.toISOString() };
    }),

  /**
   * Completes a sign-in that needs its second factor: the challenge, and a code from the app, a
   * recovery code or a passkey's assertion. Guesses spend the account's sign-in budget; a challenge
   * is completed once, a code and a recovery code work once.
   */
  secondFactor: perIpProcedure('login')
    .meta(
      rest(
        'POST /v1/auth/second-factor',
        200,
        'Complete a sign-in with its second factor: the challenge, and a code from the authenticator app, a recovery code or a passkey',
        { errors: ['rate_limited', 'invalid_challenge', 'invalid_second_factor'] },
      ),
    )
    .input(secondFactorInput)
    .output(loginOutput)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      if (!isWellFormedChallengeToken(input.challenge)) throw new ApiError('invalid_challenge');
      const waiting = await ctx.em.getRepository(AuthChallenge).findByToken(sha256(input.challenge), 'second_factor', services.now());
      const user = waiting?.userId ? await ctx.em.getRepository(User).findOne({ id: waiting.userId }) : null;
      if (!waiting || !user) throw new ApiError('invalid_challenge');
      const result = await services.rateLimits.guess('login_failures', user.email.toLowerCase(), () =>
        ctx.em.transactional(async (em) => {
          const now = services.now();
          // Locked, so of two completions at once one signs in, and the other finds it spent.
          if (!(await em.getRepository(AuthChallenge).lockLive(waiting.id, now))) throw new ApiError('invalid_challenge');
          let passed: boolean;
          if (input.code !== undefined) passed = await takeTotpCode(em, services.secretBox, user.id, input.code, now);
          else if (input.recovery_code !== undefined) passed = await spendRecoveryCode(em, services.secretBox, user.id, input.recovery_code, now);
          else
            passed =
              waiting.webauthnChallenge !== null &&
              (await verifiedAssertion(em, services, input.passkey as never, waiting.webauthnChallenge, user.id)) !== null;
          if (!passed) return null;
          await em.getRepository(AuthChallenge).spend(waiting.id);
          if (input.recovery_code !== undefined) {
            const remaining = await em.getRepository(RecoveryCode).remainingOf(user.id);
            await recordFactorChange(em, services, user, { type: 'user', id: user.id }, { kind: 'recovery_code_used', remaining });
          }
          const session = startSession(em, user.id, now, { ip: ctx.ip, userAgent: ctx.userAgent ?? null });
          await em.flush();
          return session;
        }),
      );
      // A wrong code stays counted; the challenge stays for the next try.
      if (!result) throw input.passkey !== undefined ? passkeyRefused() : new ApiError('invalid_second_factor');
      if (input.recovery_code !== undefined) services.wakeMailer();
      ctx.cookies.set(result.token, result.expiresAt);
      return { user: userToWire(user), session_token: result.token, expires_at: result.expiresAt.toISOString() };
    }),

  /** The options for signing in with a passkey alone: any passkey of this site, the browser lets the person choose. */
  passkeyLoginOptions: perIpProcedure('login')
    .meta(
      rest('POST /v1/auth/login/passkey/options', 200, 'Start signing in with a passkey: the options for `navigator.credentials.get()` (5 minutes)', {
        errors: ['rate_limited'],
      }),
    )
    .output(passkeyAssertionOptions)
    .mutation(async ({ ctx }) => {
      const now = ctx.services.now();
      const options = await assertionOptions(ctx.services, null);
      await ctx.em
        .getRepository(AuthChallenge)
        .open({ purpose: 'passkey_sign_in', userId: null, webauthnChallenge: options.challenge, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) }, now);
      return { options };
    }),

  /**
   * Signs in with a passkey alone: a passkey is both factors (something the person has, unlocked by
   * something they know or are). The challenge it signed is used once.
   */
  passkeyLogin: perIpProcedure('login')
    .meta(
      rest('POST /v1/auth/login/passkey', 200, 'Sign in with a passkey, without a password', {
        errors: ['rate_limited', 'invalid_challenge', 'invalid_second_factor'],
      }),
    )
    .input(passkeyLoginInput)
    .output(loginOutput)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const signed = await challengeSignedBy(input.passkey as never);
      const waiting = signed ? await ctx.em.getRepository(AuthChallenge).findByWebauthnChallenge(signed, 'passkey_sign_in', services.now()) : null;
      if (!waiting) throw new ApiError('invalid_challenge', { message: 'The passkey signed no sign-in of this server that is still open: start again.' });
      const result = await ctx.em.transactional(async (em) => {
        const now = services.now();
        if (!(await em.getRepository(AuthChallenge).spend(waiting.id))) throw new ApiError('invalid_challenge');
        const passkey = await verifiedAssertion(em, services, input.passkey as never, signed!, null);
        if (!passkey) throw passkeyRefused();
        const user = await em.getRepository(User).findOneOrFail({ id: passkey.userId });
        const session = startSession(em, user.id, now, { ip: ctx.ip, userAgent: ctx.userAgent ?? null });
        await em.flush();
        return { user, session };
      });
      ctx.cookies.set(result.session.token, result.session.expiresAt);
      return { user: userToWire(result.user), session_token: result.session.token, expires_at: result.session.expiresAt.toISOString() };
    }),

  /**
   * Sudo mode: the signed-in person proves who they are again (the password, a code from the app,
   * or a passkey), and what is dangerous may be done for the next `LFK_SUDO_WINDOW` seconds.
   */
  reauthenticate: sessionProcedure
    .meta(
      rest(
        'POST /v1/auth/reauthenticate',
        204,
        'Confirm who you are again (password, authenticator code or passkey): sudo mode, for keys, secrets, second factors, exports and deletions',
        { errors: ['rate_limited', 'invalid_second_factor', 'invalid_challenge'] },
      ),
    )
    .input(reauthenticateInput)
    .mutation(async ({ ctx, input }) => {
      const { services } = ctx;
      const userId = ctx.session.userId;
      if (input.password !== undefined) {
        await confirmPassword(ctx, input.password, { path: 'password', message: 'Is not your password.' });
      } else if (input.code !== undefined) {
        const user = await ctx.em.getRepository(User).findOneOrFail({ id: userId }, { failHandler: () => new ApiError('invalid_session') });
        const right = await services.rateLimits.guess('login_failures', user.email, () =>
          takeTotpCode(ctx.em, services.secretBox, user.id, input.code!, services.now()),
        );
        if (!right) throw new ApiError('invalid_second_factor');
      } else {
        const challenges = ctx.em.getRepository(AuthChallenge);
        const waiting = await challenges.findEnrolment(userId, 'reauthentication', services.now());
        if (!waiting?.webauthnChallenge || !(await challenges.spend(waiting.id)))
          throw new ApiError('invalid_challenge', { message: 'Ask for the options again (POST /v1/auth/reauthenticate/options).' });
        if (!(await verifiedAssertion(ctx.em, services, input.passkey as never, waiting.webauthnChallenge, userId))) throw passkeyRefused();
      }
      await ctx.em.getRepository(Session).reauthenticated(ctx.session.sessionId, services.now());
    }),

  /** The options for confirming who you are with one of your passkeys. */
  reauthenticateOptions: sessionProcedure
    .meta(
      rest(
        'POST /v1/auth/reauthenticate/options',
        200,
        'Start confirming who you are with a passkey: the options for `navigator.credentials.get()` (5 minutes)',
        { errors: ['two_factor_not_enabled'] },
      ),
    )
    .output(passkeyAssertionOptions)
    .mutation(async ({ ctx }) => {
      const userId = ctx.session.userId;
      const passkeys = await ctx.em.getRepository(Passkey).credentialsOf(userId);
      if (passkeys.length === 0) throw new ApiError('two_factor_not_enabled', { message: 'You have no passkey: confirm with your password or a code.' });
      const now = ctx.services.now();
      const options = await assertionOptions(ctx.services, passkeys);
      await ctx.em
        .getRepository(AuthChallenge)
        .replace({ purpose: 'reauthentication', userId, webauthnChallenge: options.challenge, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) }, now);
      return { options };
    }),

  logout: sessionProcedure.meta(rest('POST /v1/auth/logout', 204, 'Sign out: the session is revoked')).mutation(async ({ ctx }) => {
    await ctx.em.getRepository(Session).revoke(ctx.session.sessionId);
    ctx.cookies.clear();
  }),

  changePassword: sessionProcedure
    .meta(
      rest('POST /v1/auth/password', 204, 'Change the password: the current one is required, and every other session of the account is signed out', {
        errors: ['rate_limited'],
      }),
    )
    .input(passwordChangeInput)
    .mutation(async ({ ctx, input }) => {
      const user = await confirmPassword(ctx, input.current_password, { path: 'current_password', message: 'Is not your current password.' });
      const passwordHash = await hashPassword(input.new_password);
      await ctx.em.transactional(async (em) => {
        await em.getRepository(User).setPassword(user.id, passwordHash);
        await signOutEverywhere(em, user.id, ctx.services.now(), ctx.session.sessionId);
        enqueueEmail(em, passwordChangedEmail({ to: user.email, how: 'changed' }));
      });
      ctx.services.wakeMailer();
    }),

  resendEmailVerification: sessionProcedure
    .meta(
      rest('POST /v1/auth/email-verification', 202, "Send a new link to confirm the signed-in person's address", {
        errors: ['email_already_verified', 'rate_limited'],
      }),
    )
    .output(verificationSent)
    .mutation(async ({ ctx }) => {
      const sentTo = await ctx.em.transactional(async (em) => {
        // The user's row lock makes "check the interval, then send" one step for concurrent asks.
        // Deleted meanwhile (from another session): so is this session.
        const user = await em.getRepository(User).findOneForUpdateOrFail({ id: ctx.session.userId }, () => new ApiError('invalid_session'));
        if (user.emailVerifiedAt) throw new ApiError('email_already_verified');
        assertResendAllowed(ctx.services, await em.getRepository(EmailVerification).sentToUserAt(user.id));
        await sendAccountVerification(em, ctx.services, user, await spendUnasked(ctx.services.rateLimits, user.email, em));
        return maskEmail(user.email);
      });
      ctx.services.wakeMailer();
      return { sent_to: sentTo };
    }),

  /**
   * Deletes the account for good: its sessions, its memberships, and the workspaces where it is
   * the only member (with all they hold). Refused while it is the last owner of a workspace that
   * has other members: they would be left without one. The password is asked again.
   */
  deleteAccount: sessionProcedure
    .meta(
      rest('DELETE /v1/auth/account', 204, 'Delete your account: workspaces where you are the only member go with it', {
        errors: ['last_owner', 'rate_limited'],
      }),
    )
    .input(accountDeleteInput)
    .mutation(async ({ ctx, input }) => {
      const user = await confirmPassword(ctx, input.password, { path: 'password', message: 'Is not your password.' });
      const deleted = await retryingDeadlocks(() =>
        ctx.em.transactional(async (em) => {
          const memberships = em.getRepository(Membership);
          const workspaces = em.getRepository(Workspace);
          const keyHashes: string[] = [];
          const formIds: string[] = [];
          // Each workspace locked, in one order, as a role change or a removal would lock it.
          for (const { workspaceId } of await memberships.allOf(user.id)) {
            const found = await workspaces.lock(workspaceId);
            const role = found ? await memberships.roleOf(workspaceId, user.id) : null;
            // Deleted or left meanwhile: nothing of it to take or to leave.
            if (!found || role === null) continue;
            const others = (await memberships.countMembers(workspaceId)) - 1;
            if (others === 0) {
              const gone = await workspaces.deleteNow(workspaceId);
              keyHashes.push(...gone.keyHashes);
              formIds.push(...gone.formIds);
              continue;
            }
            if (await memberships.isLastOwner(workspaceId, role)) {
              throw new ApiError('last_owner', {
                message:
                  `You are the last owner of the workspace "${found.name}", which has other members: ` +
                  'make one of them an owner, or delete the workspace, first.',
              });
            }
            em.getRepository(AuditEvent).record({
              workspaceId,
              action: 'member.left',
              actor: ctx.actor,
              target: { type: 'user', id: user.id },
              data: { role },
            });
            await cancelInvitationsSentBy(em, user.id, { actor: ctx.actor, reason: 'inviter_not_owner', workspaceId });
          }
          await em.flush();
          await em.getRepository(User).deleteNow(user.id);
          return { keyHashes, formIds };
        }),
      );
      for (const hash of deleted.keyHashes) ctx.services.apiKeyCache.forget(hash);
      for (const formId of deleted.formIds) ctx.services.formCache.forget(formId);
      ctx.cookies.clear();
    }),

  // The session list and sign-outs belong to features/sessions; they stay under the `auth` key, in this order.
  ...sessionsProcedures,

  session: sessionProcedure
    .meta(rest('GET /v1/auth/session', 200, 'The signed-in user and when the session expires'))
    .output(sessionOutput)
    .query(async ({ ctx }) => {
      const user = await ctx.em.getRepository(User).findOneOrFail({ id: ctx.session.userId }, { failHandler: () => new ApiError('invalid_session') });
      return { user: userToWire(user), expires_at: ctx.session.expiresAt.toISOString() };
    }),
});
