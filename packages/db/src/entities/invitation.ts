import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ROLES, TEXT_LIMITS } from '@lfk/vocabulary';
import { InvitationRepository } from '../repositories/invitations.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';
import { Workspace } from './workspace.ts';

/**
 * An owner's invitation of an address into a workspace, with a role, pending until the person who
 * reads that address's mail accepts its link (`lfi_…`, only its sha256 kept) or an owner cancels
 * it. One per address and workspace: inviting again replaces the link. Accepting deletes it.
 */
export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitations',
  extends: BaseEntity,
  repository: () => InvitationRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    email: p.string().length(TEXT_LIMITS.email),
    role: p.enum(ROLES),
    tokenHash: p.string().length(64).unique(),
    invitedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    expiresAt: p.datetime(),
    /** When its link was last sent (an invitation resent gets a new link and a new expiry). */
    sentAt: p.datetime(),
  },
  uniques: [{ properties: ['workspace', 'email'] }],
});
export type IInvitation = InferEntity<typeof Invitation>;
