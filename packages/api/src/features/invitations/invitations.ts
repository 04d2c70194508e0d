import { AuditEvent, type IInvitation, Invitation, Membership, User, Workspace } from '@lfk/db';
import { INVITATION_TTL_DAYS, type Role } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import type { Actor } from '../../trpc.ts';
import type { z } from 'zod';
import type { invitationEndedReason } from './schemas.ts';
import { generateInvitationToken } from '../../credentials/tokens.ts';
import { iso } from '../../infrastructure/wire.ts';
import { enqueueEmail, spendUnasked } from '../../infrastructure/outbox.ts';
import { invitationEmail } from './emails.ts';

export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 3600_000;

export const invitationToWire = (i: IInvitation) => ({
  id: i.id,
  workspace_id: i.workspace.id,
  email: i.email,
  role: i.role,
  invited_by: i.invitedBy?.id ?? null,
  expires_at: iso(i.expiresAt),
  created_at: iso(i.createdAt),
});

/** Where an invitee opens their link: the dashboard's page for it, which has them sign in or up. */
export const invitationLink = (services: Services, token: string) => `${services.publicUrl}/invitations/${token}`;

/**
 * Invites (or invites again) `email` into the workspace and queues the email with its link: a new
 * link each time, the earlier one dead. Answers the invitation as stored.
 */
export async function sendInvitation(em: EntityManager, services: Services, input: { workspaceId: string; email: string; role: Role; invitedBy: string }) {
  const now = services.now();
  const { token, hash } = generateInvitationToken();
  const invitation = await em.getRepository(Invitation).invite({ ...input, tokenHash: hash, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS), now });
  await queueInvitationEmail(em, services, invitation, token);
  return invitation;
}

/**
 * A new link for a pending invitation, emailed; null when the workspace has no such invitation.
 * The owner who resends it is its sender from now on: it is as good as their standing.
 */
export async function resendInvitation(em: EntityManager, services: Services, workspaceId: string, invitationId: string, sentBy: string) {
  const now = services.now();
  const { token, hash } = generateInvitationToken();
  const invitation = await em
    .getRepository(Invitation)
    .renew(workspaceId, invitationId, { tokenHash: hash, sentBy, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS), now });
  if (invitation) await queueInvitationEmail(em, services, invitation, token);
  return invitation;
}

async function queueInvitationEmail(em: EntityManager, services: Services, invitation: IInvitation, token: string) {
  const workspace = await em.getRepository(Workspace).findOneOrFail({ id: invitation.workspace.id });
  const inviter = invitation.invitedBy ? await em.getRepository(User).findOne({ id: invitation.invitedBy.id }) : null;
  // The invitee did not ask for it: past the address's allowance of such mail, 429.
  const unasked = await spendUnasked(services.rateLimits, invitation.email, em);
  enqueueEmail(em, {
    ...invitationEmail({
      to: invitation.email,
      workspaceName: workspace.name,
      role: invitation.role,
      invitedBy: inviter ? (inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email) : 'An owner',
      link: invitationLink(services, token),
      validDays: INVITATION_TTL_DAYS,
    }),
    secret: { token, box: services.secretBox },
    unasked,
  });
}

/**
 * An invitation is only as good as its sender's standing: it may be accepted while its sender
 * could still send it, as an owner of its workspace whose address is confirmed. Removed, demoted,
 * left, or deleted (`null`), the sender vouches for nothing.
 */
export async function senderStillVouches(em: EntityManager, workspaceId: string, senderId: string | null): Promise<boolean> {
  if (senderId === null) return false;
  if ((await em.getRepository(Membership).roleOf(workspaceId, senderId)) !== 'owner') return false;
  return em.getRepository(User).hasVerifiedEmail(senderId);
}

type InvitationsEndedBecause = z.infer<typeof invitationEndedReason>;

/**
 * Cancels the pending invitations `senderId` sent (in one workspace, or in all), each recorded
 * with why. Acceptance refuses them anyway (`senderStillVouches`); cancelling them keeps the
 * owners' list of pending invitations to those that can still be accepted.
 */
export async function cancelInvitationsSentBy(
  em: EntityManager,
  senderId: string,
  ended: { actor: Actor; reason: InvitationsEndedBecause; workspaceId?: string },
) {
  const cancelled = await em.getRepository(Invitation).cancelSentBy(senderId, ended.workspaceId);
  const audit = em.getRepository(AuditEvent);
  for (const invitation of cancelled) {
    audit.record({
      workspaceId: invitation.workspaceId,
      action: 'invitation.cancelled',
      actor: ended.actor,
      target: { type: 'invitation', id: invitation.id },
      data: { email: invitation.email, reason: ended.reason },
    });
  }
  return cancelled;
}
