import { z } from 'zod';
import { email, idParam, listInput, role, timestamp, workspaceScoped } from '../../common-schemas.ts';
import { workspace } from '../workspaces/schemas.ts';

export const invitation = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    email: z.string(),
    role,
    invited_by: z.string().nullable().describe('The user who sent it; null once their account is deleted.'),
    expires_at: timestamp.describe('When its link stops working; resending gives it a new link and 7 more days.'),
    created_at: timestamp,
  })
  .meta({ id: 'Invitation', description: 'An invitation waiting for its invitee: accepted, it is gone.' });
export const invitationCreateInput = workspaceScoped.extend({ email, role: role.default('member') }).strict();
export const invitationListInput = workspaceScoped.extend(listInput.shape);
export const invitationIdInput = workspaceScoped.extend({ invitation_id: idParam });
export const invitationTokenInput = z.object({ token: z.string() });
export const invitationPreview = z
  .object({
    workspace: z.object({ id: z.string(), name: z.string() }),
    email: z.string().describe('The address it was sent to: accept it signed in with that address.'),
    role,
    invited_by: z.object({ name: z.string().nullable(), email: z.string() }).nullable(),
    expires_at: timestamp,
  })
  .meta({ id: 'InvitationPreview', description: 'Where an invitation link leads, shown before signing in.' });
export const invitationAccepted = z.object({ workspace, role }).meta({ id: 'InvitationAccepted' });

/** Why lfk itself ended what a person had granted, when it did (a person's own act records none). */
export const accountReclaimed = z
  .literal('account_reclaimed')
  .describe('A password reset confirmed the address of the account that granted it, for the first time: what it handed out before was taken back.');

/** Why lfk cancelled an invitation: its sender may no longer send it, or lost what they granted. */
export const invitationEndedReason = z.union([
  z.literal('inviter_not_owner').describe('Its sender was removed, was made a member, left, or deleted their account.'),
  accountReclaimed,
]);
