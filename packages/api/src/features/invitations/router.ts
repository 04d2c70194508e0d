import { AuditEvent, Form, Invitation, isId, Membership, User, Workspace } from '@lfk/db';
import { MAX_PENDING_INVITATIONS } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import { sha256 } from '../../credentials/secrets.ts';
import { isWellFormedInvitationToken } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import { listOf } from '../../common-schemas.ts';
import { iso } from '../../infrastructure/wire.ts';
import { pageOf } from '../../infrastructure/pagination.ts';
import { MAKING_AN_OWNER, rest } from '../../procedure-meta.ts';
import { confirmedOwnerProcedure, memberProcedure, ownerProcedure, publicProcedure, router, sessionProcedure } from '../../trpc.ts';
import { maskEmail } from '../email-verification/sending.ts';
import { invitationToWire, resendInvitation, senderStillVouches, sendInvitation } from './invitations.ts';
import { workspaceToWire } from '../workspaces/serializers.ts';
import {
  invitation,
  invitationAccepted,
  invitationCreateInput,
  invitationIdInput,
  invitationListInput,
  invitationPreview,
  invitationTokenInput,
} from './schemas.ts';
import { auditByCaller } from '../../infrastructure/audit.ts';

/** The link's invitation, if it still works; the same 404 for a link unknown, used, replaced, cancelled or expired. */
async function workingInvitation(em: EntityManager, token: string, now: Date) {
  const found = isWellFormedInvitationToken(token) ? await em.getRepository(Invitation).read(sha256(token)) : null;
  if (!found || found.expiresAt <= now) throw new ApiError('invitation_not_found');
  await assertSenderVouches(em, found.workspaceId, found.invitedBy);
  return found;
}

/** An invitation whose sender may no longer send it (removed, demoted, left, deleted) is not one any more. */
async function assertSenderVouches(em: EntityManager, workspaceId: string, senderId: string | null): Promise<void> {
  if (await senderStillVouches(em, workspaceId, senderId)) return;
  throw new ApiError('invitation_not_found', {
    message: 'This invitation no longer stands: whoever sent it can no longer invite to this workspace. Ask one of its owners to invite you again.',
  });
}

export const invitationsRouter = router({
  list: memberProcedure
    .meta(rest('GET /v1/workspaces/:workspace_id/invitations', 200, "The workspace's pending invitations, newest first"))
    .input(invitationListInput)
    .output(listOf(invitation))
    .query(({ ctx, input }) => {
      const invitations = ctx.em.getRepository(Invitation);
      return pageOf(
        'inv',
        input,
        (before, limit) => invitations.pendingIn(ctx.workspaceId, before, limit),
        (i) => i.id,
        invitationToWire,
      );
    }),

  /**
   * Invites an address: the same answer whether or not it has an account (or is a member already),
   * and nobody joins until the person reading that address's mail accepts. Inviting an address
   * again replaces its pending invitation (role, link, expiry).
   */
  create: confirmedOwnerProcedure
    .meta(
      rest(
        'POST /v1/workspaces/:workspace_id/invitations',
        202,
        'Invite an email address with a role; they join when they accept the emailed link (7 days). The same answer for every address',
        { errors: ['invitation_limit_reached', 'rate_limited'], sudo: MAKING_AN_OWNER },
      ),
    )
    .input(invitationCreateInput)
    .output(invitation)
    .mutation(async ({ ctx, input }) => {
      await ctx.services.rateLimits.consume('invitations', ctx.session.userId);
      const created = await ctx.em.transactional(async (em) => {
        // The workspace's lock makes "count, then add" one step for invitations sent at once.
        await em.getRepository(Workspace).lock(ctx.workspaceId);
        const invitations = em.getRepository(Invitation);
        const existing = await invitations.findOne({ workspace: ctx.workspaceId, email: input.email });
        if (!existing && (await invitations.countLiveIn(ctx.workspaceId, ctx.services.now())) >= MAX_PENDING_INVITATIONS)
          throw new ApiError('invitation_limit_reached');
        const sent = await sendInvitation(em, ctx.services, {
          workspaceId: ctx.workspaceId,
          email: input.email,
          role: input.role,
          invitedBy: ctx.session.userId,
        });
        auditByCaller(em, ctx, { action: 'invitation.created', target: { type: 'invitation', id: sent.id }, data: { email: sent.email, role: sent.role } });
        return invitationToWire(sent);
      });
      ctx.services.wakeMailer();
      return created;
    }),

  resend: confirmedOwnerProcedure
    .meta(
      rest(
        'POST /v1/workspaces/:workspace_id/invitations/:invitation_id/resend',
        202,
        'Email a pending invitation again, with a new link good for 7 more days (the old link stops working); you become its sender',
        { errors: ['invitation_not_found', 'rate_limited'] },
      ),
    )
    .input(invitationIdInput)
    .output(invitation)
    .mutation(async ({ ctx, input }) => {
      if (!isId('inv', input.invitation_id)) throw new ApiError('invitation_not_found');
      await ctx.services.rateLimits.consume('invitations', ctx.session.userId);
      const resent = await ctx.em.transactional(async (em) => {
        const renewed = await resendInvitation(em, ctx.services, ctx.workspaceId, input.invitation_id, ctx.session.userId);
        if (!renewed) throw new ApiError('invitation_not_found');
        auditByCaller(em, ctx, { action: 'invitation.resent', target: { type: 'invitation', id: renewed.id }, data: { email: renewed.email } });
        return invitationToWire(renewed);
      });
      ctx.services.wakeMailer();
      return resent;
    }),

  cancel: ownerProcedure
    .meta(
      rest('DELETE /v1/workspaces/:workspace_id/invitations/:invitation_id', 204, 'Cancel a pending invitation: its link stops working', {
        errors: ['invitation_not_found'],
      }),
    )
    .input(invitationIdInput)
    .mutation(async ({ ctx, input }) => {
      if (!isId('inv', input.invitation_id)) throw new ApiError('invitation_not_found');
      await ctx.em.transactional(async (em) => {
        const cancelled = await em.getRepository(Invitation).cancel(ctx.workspaceId, input.invitation_id);
        if (!cancelled) throw new ApiError('invitation_not_found');
        auditByCaller(em, ctx, { action: 'invitation.cancelled', target: { type: 'invitation', id: input.invitation_id }, data: { email: cancelled.email } });
      });
    }),

  /** Where a link leads, for its page before the invitee signs in; it changes nothing. */
  show: publicProcedure
    .meta(
      rest('GET /v1/invitations/:token', 200, 'What an invitation link invites to: the workspace, the address, the role', { errors: ['invitation_not_found'] }),
    )
    .input(invitationTokenInput)
    .output(invitationPreview)
    .query(async ({ ctx, input }) => {
      const found = await workingInvitation(ctx.em, input.token, ctx.services.now());
      return {
        workspace: { id: found.workspaceId, name: found.workspaceName },
        email: found.email,
        role: found.role,
        invited_by: found.invitedByEmail ? { name: found.invitedByName, email: found.invitedByEmail } : null,
        expires_at: iso(found.expiresAt),
      };
    }),

  /**
   * Joins the workspace, signed in with the address the invitation was sent to. The link works
   * once (of two acceptances at once, one wins), and only while its sender is still an owner of
   * the workspace; it proves the address reads its mail, so the account's address is verified too.
   * A member already keeps their role.
   */
  accept: sessionProcedure
    .meta(
      rest('POST /v1/invitations/:token/accept', 200, 'Accept an invitation, signed in with the address it was sent to: you join its workspace', {
        errors: ['invitation_not_found', 'invitation_for_another_address'],
      }),
    )
    .input(invitationTokenInput)
    .output(invitationAccepted)
    .mutation(async ({ ctx, input }) => {
      const now = ctx.services.now();
      const user = await ctx.em.getRepository(User).findOneOrFail({ id: ctx.session.userId }, { failHandler: () => new ApiError('invalid_session') });
      const seen = await workingInvitation(ctx.em, input.token, now);
      if (seen.email !== user.email) {
        throw new ApiError('invitation_for_another_address', {
          message:
            `This invitation was sent to ${maskEmail(seen.email)}, and you are signed in as ${user.email}: ` +
            'sign in, or sign up, with the address it was sent to.',
        });
      }
      const { accepted, verifiedForms } = await ctx.em.transactional(async (em) => {
        // The workspace's row before the invitation's, the order a workspace's delete takes them in.
        if (!(await em.getRepository(Workspace).lock(seen.workspaceId))) throw new ApiError('invitation_not_found');
        const spent = await em.getRepository(Invitation).spend(sha256(input.token));
        if (!spent || spent.expiresAt <= now) throw new ApiError('invitation_not_found');
        // Under the workspace's lock, which a removal or a role change also takes: the sender's standing as it is now.
        await assertSenderVouches(em, spent.workspaceId, spent.invitedBy);
        const memberships = em.getRepository(Membership);
        let membership = await memberships.findOf(spent.workspaceId, user.id);
        if (!membership) {
          membership = memberships.add(spent.workspaceId, user.id, spent.role);
          em.getRepository(AuditEvent).record({
            workspaceId: spent.workspaceId,
            action: 'member.added',
            actor: { type: 'user', id: user.id },
            target: { type: 'user', id: user.id },
            data: { role: spent.role, invitation_id: spent.id },
          });
        }
        await em.flush();
        await em.getRepository(User).markEmailVerified(user.id, now);
        const verifiedForms = await em.getRepository(Form).verifyNotifyEmailOfMember(user.id, user.email);
        const workspace = await em.getRepository(Workspace).findOneOrFail({ id: spent.workspaceId });
        return { accepted: { workspace: workspaceToWire(workspace, membership.role), role: membership.role }, verifiedForms };
      });
      // Their submissions notify the address from now on.
      for (const formId of verifiedForms) ctx.services.formCache.forget(formId);
      return accepted;
    }),
});
