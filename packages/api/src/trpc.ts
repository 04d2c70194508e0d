import { Form, type IForm, isId, Membership, User } from '@lfk/db';
import type { ActorType, Role } from '@lfk/vocabulary';
import { initTRPC } from '@trpc/server';
import { z } from 'zod';
import type { Context } from './context.ts';
import { refusal } from './credentials/authenticate.ts';
import type { Principal } from './credentials/principal.ts';
import { ApiError, type ErrorCode, toWireError, trpcErrorData } from './errors.ts';
import type { ProcedureMeta } from './procedure-meta.ts';
import type { RateLimitName } from './rate-limits/rate-limits.ts';
import { idParam, workspaceScoped } from './common-schemas.ts';

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      const wire = toWireError(error, ctx?.requestId ?? '');
      return { code: shape.code, message: wire.body.error.message, data: trpcErrorData(wire) };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export type Actor = { type: ActorType; id: string };

/** What lfk's own background work (a key's expiry, disabling a failing webhook) acts as in the audit log. */
export const SYSTEM_ACTOR = { type: 'system', id: 'lfk' } as const satisfies Actor;
type Identified = Exclude<Principal, { kind: 'anonymous' }>;
type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

/** Who an audit event names: the person, or the key. */
const actorOf = (principal: Identified): Actor =>
  principal.kind === 'session' ? { type: 'user', id: principal.userId } : { type: 'api_key', id: principal.keyId };

/** Counts the request against a per-IP limit, before any work is done for it. */
const perIpLimit = (name: RateLimitName) =>
  t.middleware(async ({ ctx, next }) => {
    await ctx.services.rateLimits.consume(name, ctx.ip);
    return next();
  });

// Each exported builder stamps `meta.access` next to the middleware that enforces it, and
// `meta.accessErrors`, what that middleware answers with: the REST table and OpenAPI read who may
// call a procedure, and how a caller is refused, from there, never from a second list.

/** A bearer that was presented and refused: unknown or revoked, or from an address held back for refused keys. */
const REFUSED_BEARER: ErrorCode[] = ['invalid_api_key', 'invalid_session', 'rate_limited'];
/** No usable credentials: none, a refused cookie session, or a cookie write from another origin. */
const AUTHENTICATION: ErrorCode[] = [...REFUSED_BEARER, 'unauthenticated', 'csrf_failed'];
const SESSION: ErrorCode[] = [...AUTHENTICATION, 'session_required'];

// Each builder has one middleware that decides access, calling the checks below, rather than a
// chain of them: every middleware is one more async step and one more copy of the context per call.

/** A bearer that was presented and refused refuses the call, whatever it is. */
function refuseRefusedBearer(ctx: Context): void {
  const refused = refusal(ctx.auth);
  if (refused) throw refused;
}

/** Who is calling; anonymous or refused credentials are refused. */
function identify(ctx: Context): { principal: Identified; actor: Actor } {
  if (ctx.auth.failure) throw ctx.auth.failure;
  const principal = ctx.auth.principal;
  if (principal.kind === 'anonymous') throw new ApiError('unauthenticated');
  return { principal, actor: actorOf(principal) };
}

const PUBLIC = { access: 'public', accessErrors: REFUSED_BEARER } as const;

/** No credentials needed; but a bearer that was presented and refused is refused here too. */
export const publicProcedure = t.procedure.meta(PUBLIC).use(({ ctx, next }) => {
  refuseRefusedBearer(ctx);
  return next();
});

/**
 * A public procedure that costs something to answer (a password hash, an email, a challenge),
 * counted against a per-IP limit before any work is done for it. Past it: 429 `rate_limited`,
 * already among a public procedure's errors.
 */
export const perIpProcedure = (name: RateLimitName) => publicProcedure.use(perIpLimit(name));

const authenticatedProcedure = t.procedure.use(({ ctx, next }) => next({ ctx: identify(ctx) }));

/** An API key, and nothing else: for what a key asks of itself. A session has no key to answer for. */
export const keyProcedure = t.procedure.meta({ access: 'api_key', accessErrors: [...AUTHENTICATION, 'api_key_required'] }).use(({ ctx, next }) => {
  const identified = identify(ctx);
  if (identified.principal.kind !== 'api_key') {
    throw new ApiError('api_key_required', {
      message: 'This answers for the API key the request presents (`Authorization: Bearer lfk_…`); a session has none.',
    });
  }
  return next({ ctx: { ...identified, key: identified.principal } });
});

/**
 * Sudo mode (DESIGN §15): a procedure whose meta says `sudo` needs its person to have proved who
 * they are (signed in, or reauthenticated) within the server's sudo window; a `when` narrows it to
 * some inputs (inviting an owner, not a member). Read from the raw input: the check comes before
 * the procedure's own parsing, which refuses a malformed input on its own.
 */
async function assertSudoMode(ctx: Context, session: SessionPrincipal, meta: ProcedureMeta | undefined, rawInput: () => Promise<unknown>): Promise<void> {
  const sudo = meta?.sudo;
  if (!sudo) return;
  if (sudo !== true && !sudo.when(await rawInput())) return;
  if (ctx.services.now().getTime() - session.authenticatedAt.getTime() > ctx.services.sudoWindowMs) throw new ApiError('reauthentication_required');
}

/** A signed-in person. An API key is refused: keys never reach what this guards. */
export const sessionProcedure = authenticatedProcedure.meta({ access: 'session', accessErrors: SESSION }).use(async ({ ctx, meta, getRawInput, next }) => {
  const principal = ctx.principal;
  if (principal.kind !== 'session') throw new ApiError('session_required');
  await assertSudoMode(ctx, principal, meta, getRawInput);
  return next({ ctx: { session: principal } });
});

/**
 * What hands reach to someone else (an API key, a webhook, an invitation) waits until the account
 * has proved it reads mail at its address. Otherwise whoever signs up first with another person's
 * address could leave such reach behind, and keep it after that person takes the account back
 * with a password reset ("account pre-hijacking").
 */
async function assertAddressConfirmed(ctx: Context, userId: string): Promise<void> {
  if (!(await ctx.em.getRepository(User).hasVerifiedEmail(userId))) throw new ApiError('email_not_confirmed');
}

/** `assertAddressConfirmed` for a session, when the procedure's meta asks it of this input (`confirmedAddress`). */
async function assertAddressConfirmedFor(
  ctx: Context,
  principal: Identified,
  meta: ProcedureMeta | undefined,
  rawInput: () => Promise<unknown>,
): Promise<void> {
  if (!meta?.confirmedAddress || principal.kind !== 'session') return;
  if (meta.confirmedAddress.when(await rawInput())) await assertAddressConfirmed(ctx, principal.userId);
}

/**
 * The person's role in the workspace, once they may reach it: outsiders learn nothing, not even
 * that it exists (`notFound`); a member of a workspace that requires a second factor their account
 * lacks is told to add one (`two_factor_required`), but for what meta says stays open to them
 * (leaving it). Keys never come here: they are not people.
 */
async function reachWorkspace(ctx: Context, workspaceId: string, userId: string, meta: ProcedureMeta | undefined, notFound: ErrorCode): Promise<Role> {
  const access = await ctx.em.getRepository(Membership).accessOf(workspaceId, userId);
  if (access === null) throw new ApiError(notFound);
  if (access.lacksSecondFactor && !meta?.withoutRequiredTwoFactor) throw new ApiError('two_factor_required');
  return access.role;
}

/**
 * A signed-in person with at least `minimum` role in `input.workspace_id`; with
 * `confirmedAddress`, also an account whose address is confirmed.
 */
function workspaceProcedure(minimum: Role, { confirmedAddress = false } = {}) {
  const accessErrors: ErrorCode[] = [
    ...SESSION,
    'workspace_not_found',
    ...(minimum === 'owner' ? ['owner_required' as const] : []),
    'two_factor_required',
    ...(confirmedAddress ? ['email_not_confirmed' as const] : []),
  ];
  return sessionProcedure
    .meta({ access: minimum, accessErrors })
    .input(workspaceScoped)
    .use(async ({ ctx, input, meta, next }) => {
      const role = await reachWorkspace(ctx, input.workspace_id, ctx.session.userId, meta, 'workspace_not_found');
      if (minimum === 'owner' && role !== 'owner') throw new ApiError('owner_required');
      if (confirmedAddress) await assertAddressConfirmed(ctx, ctx.session.userId);
      return next({ ctx: { workspaceId: input.workspace_id, role } });
    });
}

export const memberProcedure = workspaceProcedure('member');
export const ownerProcedure = workspaceProcedure('owner');
/** An owner whose account's address is confirmed: for what grants reach (keys, invitations). */
export const confirmedOwnerProcedure = workspaceProcedure('owner', { confirmedAddress: true });

/**
 * The forms scope: a workspace API key (its workspace only) or a signed-in member of the form's
 * workspace. `canReach` is the single answer to "may this caller touch that workspace's forms?".
 */
export interface FormsScope {
  /** The key's workspace; null for a session, which must name one. */
  keyWorkspaceId: string | null;
  canReach(workspaceId: string): Promise<boolean>;
}

function formsScopeOf(ctx: Context, principal: Identified): FormsScope {
  if (principal.kind === 'api_key') {
    const keyWorkspaceId = principal.workspaceId;
    return { keyWorkspaceId, canReach: async (workspaceId) => workspaceId === keyWorkspaceId };
  }
  const userId = principal.userId;
  const memberships = ctx.em.getRepository(Membership);
  return {
    keyWorkspaceId: null,
    canReach: async (workspaceId) => {
      const access = await memberships.accessOf(workspaceId, userId);
      if (access?.lacksSecondFactor) throw new ApiError('two_factor_required');
      return access !== null;
    },
  };
}

export const formsScopeProcedure = t.procedure
  .meta({ access: 'forms_scope', accessErrors: [...AUTHENTICATION, 'two_factor_required'] })
  .use(async ({ ctx, meta, getRawInput, next }) => {
    const identified = identify(ctx);
    await assertAddressConfirmedFor(ctx, identified.principal, meta, getRawInput);
    return next({ ctx: { ...identified, scope: formsScopeOf(ctx, identified.principal) } });
  });

/**
 * The forms scope, for what grants reach (adding a webhook): a person's session needs a confirmed
 * address. A key passes: only a confirmed account can make one, and the keys an account made
 * before its address was confirmed are revoked when a password reset confirms it.
 */
export const confirmedFormsScopeProcedure = t.procedure
  .meta({ access: 'forms_scope', accessErrors: [...AUTHENTICATION, 'email_not_confirmed', 'two_factor_required'] })
  .use(async ({ ctx, next }) => {
    const identified = identify(ctx);
    if (identified.principal.kind === 'session') await assertAddressConfirmed(ctx, identified.principal.userId);
    return next({ ctx: { ...identified, scope: formsScopeOf(ctx, identified.principal) } });
  });

/**
 * The forms scope, or nobody at all: `POST /v1/forms` without credentials makes an unclaimed
 * form. `scope` and `actor` are null for the anonymous caller.
 */
export const formsScopeOrAnonymousProcedure = publicProcedure
  .meta({ access: 'forms_scope_or_anonymous', accessErrors: [...REFUSED_BEARER, 'two_factor_required'] })
  .use(async ({ ctx, meta, getRawInput, next }) => {
    const principal = ctx.auth.principal;
    if (principal.kind === 'anonymous') return next({ ctx: { scope: null, actor: null } });
    await assertAddressConfirmedFor(ctx, principal, meta, getRawInput);
    return next({ ctx: { scope: formsScopeOf(ctx, principal), actor: actorOf(principal) } });
  });

/** The key a submission was sent with. */
export type FormKey = { keyId: string; workspaceId: string };

/**
 * Submissions are public (browser forms are guarded by their origin list), but a key, when one
 * is sent, must be good, and the procedure learns whose it is. A session is not a key here.
 */
export const submissionProcedure = t.procedure.meta(PUBLIC).use(({ ctx, next }) => {
  refuseRefusedBearer(ctx);
  const principal = ctx.auth.principal;
  const key: FormKey | null = principal.kind === 'api_key' ? { keyId: principal.keyId, workspaceId: principal.workspaceId } : null;
  return next({ ctx: { key } });
});

/**
 * A signed-in person with at least `minimum` role in the workspace of the claimed form
 * `input.form_id`; outsiders get "not found", members who are not owners `owner_required`.
 */
function formProcedure(minimum: Role) {
  const accessErrors: ErrorCode[] = [...SESSION, 'form_not_found', ...(minimum === 'owner' ? ['owner_required' as const] : []), 'two_factor_required'];
  return sessionProcedure
    .meta({ access: minimum, accessErrors })
    .input(z.object({ form_id: idParam }))
    .use(async ({ ctx, input, meta, next }) => {
      const found: IForm | null = isId('form', input.form_id) ? await ctx.em.getRepository(Form).findClaimed(input.form_id) : null;
      if (!found?.workspace) throw new ApiError('form_not_found');
      const role = await reachWorkspace(ctx, found.workspace.id, ctx.session.userId, meta, 'form_not_found');
      if (minimum === 'owner' && role !== 'owner') throw new ApiError('owner_required');
      return next({ ctx: { form: found, role } });
    });
}

export const formMemberProcedure = formProcedure('member');
export const formOwnerProcedure = formProcedure('owner');
