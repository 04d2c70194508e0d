import { randomInt } from 'node:crypto';
import { AuditEvent, DeviceLogin, type IDeviceLogin, Membership, User } from '@lfk/db';
import type { Context } from '../../context.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { generateDeviceCode, isWellFormedDeviceCode } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import { describeUserAgent } from '../../infrastructure/user-agents.ts';
import { enqueueEmail } from '../../infrastructure/outbox.ts';
import { accountLink } from '../../infrastructure/dashboard-links.ts';
import { rest } from '../../procedure-meta.ts';
import { perIpProcedure, publicProcedure, router, sessionProcedure } from '../../trpc.ts';
import { loginOutput } from '../auth/schemas.ts';
import { deviceSignedInEmail } from './emails.ts';
import {
  DEVICE_LOGIN_INTERVAL_SECONDS,
  DEVICE_LOGIN_TTL_SECONDS,
  deviceLogin,
  deviceLoginStarted,
  deviceLoginStartInput,
  deviceLoginTokenInput,
  userCodeParam,
} from './schemas.ts';
import { userToWire } from '../auth/serializers.ts';
import { startSession } from '../sessions/sessions.ts';

// Sign-in for a device with no browser of its own (RFC 8628's device authorization, in lfk's
// terms): the CLI starts a request and shows a short code; the person opens the dashboard, signed
// in, checks that the code is the one on their screen and approves; the CLI, polling with the
// secret device code, then gets a session of its own. No password is typed into a terminal.

/** Consonants only: no vowels, so no words, and nothing to mistake for a digit. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

function newUserCode(): string {
  return Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
}

/** `BCDFGHJK` as people read it: `BCDF-GHJK`. */
const displayed = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** What the person typed, as stored; null when it cannot be a user code. */
function normalisedUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  return code.length === USER_CODE_LENGTH && [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

const toWire = (login: IDeviceLogin) => ({
  user_code: displayed(login.userCode),
  device_name: login.deviceName,
  state: login.state,
  requested_ip: login.requestedIp ?? null,
  requested_user_agent: login.requestedUserAgent ?? null,
  requested_device: describeUserAgent(login.requestedUserAgent),
  created_at: login.createdAt.toISOString(),
  expires_at: login.expiresAt.toISOString(),
});

type SignedIn = Pick<Context, 'em' | 'services' | 'ip' | 'userAgent'> & { session: { userId: string; authenticatedAt: Date } };

/**
 * An unexpired request by the code the person read; anything else is "not found". A code is short
 * enough to guess, so codes that name nothing are counted, per address and per person (RFC 8628
 * §5.1): past the limit every code waits, the right one too, or a guess could still land.
 */
async function findLive(ctx: SignedIn, typed: string): Promise<IDeviceLogin> {
  const { rateLimits } = ctx.services;
  const guessers = [`ip:${ctx.ip}`, `user:${ctx.session.userId}`];
  for (const guesser of guessers) {
    const held = await rateLimits.check('device_code_guesses', guesser);
    if (held) throw held;
  }
  const code = normalisedUserCode(typed);
  const found = code ? await ctx.em.getRepository(DeviceLogin).findByUserCode(code) : null;
  if (!found || found.expiresAt <= ctx.services.now() || found.state === 'used') {
    for (const guesser of guessers) {
      const over = await rateLimits.record('device_code_guesses', guesser);
      if (over) throw over;
    }
    throw new ApiError('device_login_not_found');
  }
  return found;
}

export const deviceLoginsRouter = router({
  start: perIpProcedure('login')
    .meta(
      rest('POST /v1/auth/device-logins', 201, 'Start a sign-in for a device: a code to approve in the dashboard, and one to poll with', {
        errors: ['rate_limited'],
      }),
    )
    .input(deviceLoginStartInput)
    .output(deviceLoginStarted)
    .mutation(async ({ ctx, input }) => {
      const { token, hash } = generateDeviceCode();
      const userCode = newUserCode();
      const expiresAt = new Date(ctx.services.now().getTime() + DEVICE_LOGIN_TTL_SECONDS * 1000);
      ctx.em.getRepository(DeviceLogin).start(hash, userCode, input.device_name ?? 'lfk CLI', expiresAt, { ip: ctx.ip, userAgent: ctx.userAgent ?? null });
      await ctx.em.flush();
      // No link carrying the code: the person types what their own device shows (as GitHub's
      // device flow has it), so a request someone else started and mailed as a link gets nowhere.
      return {
        device_code: token,
        user_code: displayed(userCode),
        verification_url: `${ctx.services.publicUrl}/device`,
        expires_in: DEVICE_LOGIN_TTL_SECONDS,
        interval: DEVICE_LOGIN_INTERVAL_SECONDS,
      };
    }),

  get: sessionProcedure
    .meta(
      rest('GET /v1/auth/device-logins/:user_code', 200, 'A pending sign-in by its code, to show before approving it', {
        errors: ['device_login_not_found', 'rate_limited'],
      }),
    )
    .input(userCodeParam)
    .output(deviceLogin)
    .query(async ({ ctx, input }) => toWire(await findLive(ctx, input.user_code))),

  approve: sessionProcedure
    .meta(
      rest('POST /v1/auth/device-logins/:user_code/approve', 200, 'Let the device in as the signed-in person', {
        errors: ['device_login_not_found', 'device_login_decided', 'rate_limited'],
      }),
    )
    .input(userCodeParam)
    .output(deviceLogin)
    .mutation(({ ctx, input }) => decide(ctx, input.user_code, 'approved')),

  deny: sessionProcedure
    .meta(
      rest('POST /v1/auth/device-logins/:user_code/deny', 200, 'Refuse the sign-in: the device is told so', {
        errors: ['device_login_not_found', 'device_login_decided', 'rate_limited'],
      }),
    )
    .input(userCodeParam)
    .output(deviceLogin)
    .mutation(({ ctx, input }) => decide(ctx, input.user_code, 'denied')),

  token: publicProcedure
    .meta(
      rest('POST /v1/auth/device-logins/token', 200, "The device's session, once the sign-in is approved (poll no faster than `interval`)", {
        errors: ['authorization_pending', 'device_login_expired', 'device_login_denied', 'device_login_not_found', 'rate_limited'],
      }),
    )
    .input(deviceLoginTokenInput)
    .output(loginOutput)
    .mutation(async ({ ctx, input }) => {
      const logins = ctx.em.getRepository(DeviceLogin);
      const found = isWellFormedDeviceCode(input.device_code) ? await logins.findByDeviceCodeHash(sha256(input.device_code)) : null;
      if (!found || found.state === 'used') throw new ApiError('device_login_not_found');
      if (found.state === 'denied') throw new ApiError('device_login_denied');
      const now = ctx.services.now();
      if (found.expiresAt <= now) throw new ApiError('device_login_expired');
      if (found.state === 'pending') {
        const sinceLast = found.lastPolledAt ? now.getTime() - found.lastPolledAt.getTime() : Number.POSITIVE_INFINITY;
        await logins.notePoll(found.id, now);
        if (sinceLast < DEVICE_LOGIN_INTERVAL_SECONDS * 1000) {
          throw new ApiError('rate_limited', {
            message: `Poll at most every ${DEVICE_LOGIN_INTERVAL_SECONDS} seconds.`,
            headers: { 'retry-after': String(DEVICE_LOGIN_INTERVAL_SECONDS) },
          });
        }
        throw new ApiError('authorization_pending');
      }
      // Approved: of two polls at once, one gets the session and the other "not found".
      // Approved by an account deleted since: nobody to sign in as. (Approved before approvals kept
      // their session's freshness: the migration that added it took those back.)
      const approverAuthenticatedAt = found.approverAuthenticatedAt;
      if (!found.user || !approverAuthenticatedAt || !(await logins.redeem(found.id))) throw new ApiError('device_login_not_found');
      const user = await ctx.em.getRepository(User).findOne({ id: found.user.id });
      if (!user) throw new ApiError('device_login_not_found');
      // The device's session is the approver's hand: no fresher than the session that approved it.
      const session = startSession(ctx.em, user.id, now, { ip: ctx.ip, userAgent: ctx.userAgent ?? null }, { authenticatedAt: approverAuthenticatedAt });
      await ctx.em.flush();
      return { user: userToWire(user), session_token: session.token, expires_at: session.expiresAt.toISOString() };
    }),
});

/**
 * Approves or denies a live request, once: a second decision, or one racing the first, is a 409.
 * The decision is written with an audit event in each of the person's workspaces (a session can
 * act in all of them) and, for an approval, an email to the account saying what was let in, from
 * where: a mistaken approval is seen, and its session can be revoked.
 */
async function decide(ctx: SignedIn, typed: string, state: 'approved' | 'denied') {
  const now = ctx.services.now();
  const found = await findLive(ctx, typed);
  const decided = await ctx.em.transactional(async (em) => {
    const logins = em.getRepository(DeviceLogin);
    if (!(await logins.decide(found.id, ctx.session, state, now))) return null;
    const user = await em.getRepository(User).findOneOrFail({ id: ctx.session.userId }, { failHandler: () => new ApiError('invalid_session') });
    const data = {
      device_name: found.deviceName,
      requested_ip: found.requestedIp ?? null,
      requested_user_agent: found.requestedUserAgent ?? null,
      decided_from_ip: ctx.ip,
    };
    for (const { workspaceId } of await em.getRepository(Membership).allOf(user.id)) {
      em.getRepository(AuditEvent).record({
        workspaceId,
        action: state === 'approved' ? 'device_login.approved' : 'device_login.denied',
        actor: { type: 'user', id: user.id },
        target: { type: 'device_login', id: found.id },
        data,
      });
    }
    if (state === 'approved') {
      enqueueEmail(
        em,
        deviceSignedInEmail({ to: user.email, login: { ...data, created_at: found.createdAt }, at: now, accountUrl: accountLink(ctx.services.publicUrl) }),
      );
    }
    return true;
  });
  const current = await ctx.em.getRepository(DeviceLogin).findOneOrFail({ id: found.id }, { refresh: true });
  if (!decided) throw new ApiError(current.state === 'pending' ? 'device_login_not_found' : 'device_login_decided');
  if (state === 'approved') ctx.services.wakeMailer();
  return toWire(current);
}
