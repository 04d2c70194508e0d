import { isId, Membership, Workspace } from '@lfk/db';
import { ApiError } from '../../errors.ts';
import { MAKING_AN_OWNER, rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
import { member, memberListInput, memberRemoveInput, memberRoleInput } from './schemas.ts';
import { memberToWire } from './serializers.ts';
import { pageOf } from '../../infrastructure/pagination.ts';
import { memberProcedure, ownerProcedure, router } from '../../trpc.ts';
import { cancelInvitationsSentBy } from '../invitations/invitations.ts';
import { auditByCaller } from '../../infrastructure/audit.ts';

export const membersRouter = router({
  list: memberProcedure
    .meta(rest('GET /v1/workspaces/:workspace_id/members', 200, "The workspace's members"))
    .input(memberListInput)
    .output(listOf(member))
    .query(({ ctx, input }) => {
      const memberships = ctx.em.getRepository(Membership);
      const read = (before: string | undefined, limit: number) => memberships.membersOf(ctx.workspaceId, before, limit);
      return pageOf('usr', input, read, (m) => m.user.id, memberToWire);
    }),

  setRole: ownerProcedure
    .meta(
      rest('PATCH /v1/workspaces/:workspace_id/members/:user_id', 200, "Change a member's role; the last owner stays an owner", {
        errors: ['member_not_found', 'last_owner'],
        sudo: MAKING_AN_OWNER,
      }),
    )
    .input(memberRoleInput)
    .output(member)
    .mutation(async ({ ctx, input }) => {
      if (!isId('usr', input.user_id)) throw new ApiError('member_not_found');
      return ctx.em.transactional(async (em) => {
        // Two owners demoting each other at once must not leave the workspace without one.
        await em.getRepository(Workspace).lock(ctx.workspaceId);
        const memberships = em.getRepository(Membership);
        const membership = await memberships.findOf(ctx.workspaceId, input.user_id);
        if (!membership) throw new ApiError('member_not_found');
        await em.populate(membership, ['user']);
        const from = membership.role;
        if (from === input.role) return memberToWire(membership);
        if (await memberships.isLastOwner(ctx.workspaceId, from)) throw new ApiError('last_owner');
        membership.role = input.role;
        auditByCaller(em, ctx, { action: 'member.role_changed', target: { type: 'user', id: input.user_id }, data: { from, to: input.role } });
        // Only owners invite: a member's invitations no longer stand.
        if (input.role !== 'owner')
          await cancelInvitationsSentBy(em, input.user_id, { actor: ctx.actor, reason: 'inviter_not_owner', workspaceId: ctx.workspaceId });
        return memberToWire(membership);
      });
    }),

  leave: memberProcedure
    .meta({
      ...rest('POST /v1/workspaces/:workspace_id/leave', 204, 'Leave the workspace; its last owner cannot (make someone else an owner first)', {
        errors: ['last_owner'],
      }),
      // A member without the second factor the workspace requires may still leave it.
      withoutRequiredTwoFactor: true,
    })
    .mutation(async ({ ctx }) => {
      const userId = ctx.session.userId;
      await ctx.em.transactional(async (em) => {
        // The same lock as removing a member: two owners leaving at once must not leave the workspace without one.
        await em.getRepository(Workspace).lock(ctx.workspaceId);
        const memberships = em.getRepository(Membership);
        const membership = await memberships.findOf(ctx.workspaceId, userId);
        if (!membership) throw new ApiError('workspace_not_found');
        if (await memberships.isLastOwner(ctx.workspaceId, membership.role)) throw new ApiError('last_owner');
        em.remove(membership);
        auditByCaller(em, ctx, { action: 'member.left', target: { type: 'user', id: userId }, data: { role: membership.role } });
        await cancelInvitationsSentBy(em, userId, { actor: ctx.actor, reason: 'inviter_not_owner', workspaceId: ctx.workspaceId });
      });
    }),

  remove: ownerProcedure
    .meta(
      rest('DELETE /v1/workspaces/:workspace_id/members/:user_id', 204, 'Remove a member; the last owner cannot be removed', {
        errors: ['member_not_found', 'last_owner'],
      }),
    )
    .input(memberRemoveInput)
    .mutation(async ({ ctx, input }) => {
      if (!isId('usr', input.user_id)) throw new ApiError('member_not_found');
      await ctx.em.transactional(async (em) => {
        // Two owners removing each other at once must not leave the workspace without one.
        await em.getRepository(Workspace).lock(ctx.workspaceId);
        const memberships = em.getRepository(Membership);
        const membership = await memberships.findOf(ctx.workspaceId, input.user_id);
        if (!membership) throw new ApiError('member_not_found');
        if (await memberships.isLastOwner(ctx.workspaceId, membership.role)) throw new ApiError('last_owner');
        em.remove(membership);
        auditByCaller(em, ctx, { action: 'member.removed', target: { type: 'user', id: input.user_id }, data: { role: membership.role } });
        await cancelInvitationsSentBy(em, input.user_id, { actor: ctx.actor, reason: 'inviter_not_owner', workspaceId: ctx.workspaceId });
      });
    }),
});
