import { Session } from '@lfk/db';
import { ApiError } from '../../errors.ts';
import { iso } from '../../infrastructure/wire.ts';
import { describeUserAgent } from '../../infrastructure/user-agents.ts';
import { rest } from '../../procedure-meta.ts';
import { sessionProcedure } from '../../trpc.ts';
import { activeSessionList, sessionIdInput, sessionsRevoked } from './schemas.ts';

/** A person's sessions: listed and signed out one by one or all but this one. Mounted under `auth` (their paths are /v1/auth/sessions…). */
export const sessionsProcedures = {
  sessions: sessionProcedure
    .meta(rest('GET /v1/auth/sessions', 200, "The signed-in person's sessions that still work, newest first: when and where each was last used"))
    .output(activeSessionList)
    .query(async ({ ctx }) => {
      const sessions = await ctx.em.getRepository(Session).activeOf(ctx.session.userId, ctx.services.now());
      return {
        data: sessions.map((s) => ({
          id: s.id,
          created_at: iso(s.createdAt),
          last_seen_at: s.lastSeenAt ? iso(s.lastSeenAt) : null,
          ip: s.ip,
          user_agent: s.userAgent,
          device: describeUserAgent(s.userAgent),
          current: s.id === ctx.session.sessionId,
        })),
      };
    }),

  revokeSession: sessionProcedure
    .meta(
      rest('DELETE /v1/auth/sessions/:session_id', 204, 'Sign one of your sessions out (this one too: that is signing out)', { errors: ['session_not_found'] }),
    )
    .input(sessionIdInput)
    .mutation(async ({ ctx, input }) => {
      const revoked = await ctx.em.getRepository(Session).revokeOwn(ctx.session.userId, input.session_id, ctx.services.now());
      if (!revoked) throw new ApiError('session_not_found');
      if (input.session_id === ctx.session.sessionId) ctx.cookies.clear();
    }),

  revokeOtherSessions: sessionProcedure
    .meta(rest('POST /v1/auth/sessions/revoke-others', 200, 'Sign out every session of yours but this one'))
    .output(sessionsRevoked)
    .mutation(async ({ ctx }) => ({
      revoked: await ctx.em.getRepository(Session).revokeOthers(ctx.session.userId, ctx.session.sessionId, ctx.services.now()),
    })),
};
