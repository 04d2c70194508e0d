import { type IInvitation, INVITATION_TTL_DAYS, Invitation, type Role, User, Workspace } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import { generateInvitationToken } from '../../credentials/tokens.ts';
import { iso } from '../../infrastructure/wire.ts';
import { enqueueEmail } from '../../infrastructure/outbox.ts';
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

/** A new link for a pending invitation, emailed; null when the workspace has no such invitation. */
export async function resendInvitation(em: EntityManager, services: Services, workspaceId: string, invitationId: string) {
  const now = services.now();
  const { token, hash } = generateInvitationToken();
  const invitation = await em.getRepository(Invitation).renew(workspaceId, invitationId, hash, new Date(now.getTime() + INVITATION_TTL_MS), now);
  if (invitation) await queueInvitationEmail(em, services, invitation, token);
  return invitation;
}

async function queueInvitationEmail(em: EntityManager, services: Services, invitation: IInvitation, token: string) {
  const workspace = await em.getRepository(Workspace).findOneOrFail({ id: invitation.workspace.id });
  const inviter = invitation.invitedBy ? await em.getRepository(User).findOne({ id: invitation.invitedBy.id }) : null;
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
  });
}
