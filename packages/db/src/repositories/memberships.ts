import { BaseRepository } from './base-repository.ts';
import type { Role } from '@lfk/vocabulary';
import type { IMembership } from '../entities/membership.ts';
import { isId, newId } from '../ids.ts';
import { HAS_SECOND_FACTOR } from './users.ts';

/** Who belongs to which workspace, and as what. Lists are newest first by the other side's id. */
export class MembershipRepository extends BaseRepository<IMembership> {
  /** The user's role in the workspace, or null when not a member (or no such workspace). */
  async roleOf(workspaceId: string, userId: string): Promise<Role | null> {
    if (!isId('ws', workspaceId)) return null;
    const membership = await this.findOne({ workspace: workspaceId, user: userId }, { fields: ['role'] });
    return membership?.role ?? null;
  }

  /**
   * What a session may do in the workspace: the person's role (null for an outsider), and whether
   * the workspace requires a second factor the person's account lacks. One statement: every
   * workspace route asks it.
   */
  async accessOf(workspaceId: string, userId: string): Promise<{ role: Role; lacksSecondFactor: boolean } | null> {
    if (!isId('ws', workspaceId)) return null;
    const rows = await this.em.execute<{ role: Role; lacks: boolean }[]>(
      `select m.role, (w.require_two_factor and not ${HAS_SECOND_FACTOR}) as lacks
       from memberships m join workspaces w on w.id = m.workspace_id join users u on u.id = m.user_id
       where m.workspace_id = ? and m.user_id = ?`,
      [workspaceId, userId],
    );
    const row = rows[0];
    return row ? { role: row.role, lacksSecondFactor: row.lacks === true } : null;
  }

  /** The person's membership of the workspace, or null. */
  findOf(workspaceId: string, userId: string): Promise<IMembership | null> {
    return this.findOne({ workspace: workspaceId, user: userId });
  }

  /** Queues a membership; the unique (workspace, user) index refuses a second one at flush. */
  add(workspaceId: string, userId: string, role: Role): IMembership {
    return this.create({ id: newId('mbr'), workspace: workspaceId, user: userId, role });
  }

  /** The email addresses of the workspace's owners, to tell them what befell its keys. */
  async ownerEmails(workspaceId: string): Promise<string[]> {
    const rows = await this.em.execute<{ email: string }[]>(
      `select u.email from memberships m join users u on u.id = m.user_id
        where m.workspace_id = ? and m.role = 'owner' order by u.email`,
      [workspaceId],
    );
    return rows.map((row) => row.email);
  }

  /**
   * Whether `email` is the account address of a member of the workspace: `verified` when that
   * member has confirmed it, `unconfirmed` when not yet; null when it is no member's.
   */
  async memberAddress(workspaceId: string, email: string): Promise<'verified' | 'unconfirmed' | null> {
    const rows = await this.em.execute<{ verified: boolean }[]>(
      `select bool_or(u.email_verified_at is not null) as verified from memberships m join users u on u.id = m.user_id
        where m.workspace_id = ? and u.email = ? having count(*) > 0`,
      [workspaceId, email.toLowerCase()],
    );
    const [row] = rows;
    return row === undefined ? null : row.verified ? 'verified' : 'unconfirmed';
  }

  /** Every workspace the person belongs to, with their role there, oldest first (an account's delete locks them in this order). */
  async allOf(userId: string): Promise<{ workspaceId: string; role: Role }[]> {
    const rows = await this.em.execute<{ workspace_id: string; role: Role }[]>(
      'select workspace_id, role from memberships where user_id = ? order by workspace_id',
      [userId],
    );
    return rows.map((r) => ({ workspaceId: r.workspace_id, role: r.role }));
  }

  countMembers(workspaceId: string): Promise<number> {
    return this.count({ workspace: workspaceId });
  }

  /**
   * Whether a member with `role` is the workspace's last owner, whom the workspace must keep: the
   * one rule a role change, a removal, leaving and deleting an account all ask. Under the
   * workspace's lock, so two of them at once cannot both see another owner.
   */
  async isLastOwner(workspaceId: string, role: Role): Promise<boolean> {
    return role === 'owner' && (await this.count({ workspace: workspaceId, role: 'owner' })) <= 1;
  }

  /** Up to `limit` of a workspace's members with their users, user ids below `before`. */
  membersOf(workspaceId: string, before: string | undefined, limit: number) {
    return this.find({ workspace: workspaceId, ...(before ? { user: { $lt: before } } : {}) }, { populate: ['user'], orderBy: { user: 'desc' }, limit });
  }

  /** Up to `limit` of a user's memberships with their workspaces, workspace ids below `before`. */
  workspacesOf(userId: string, before: string | undefined, limit: number) {
    return this.find({ user: userId, ...(before ? { workspace: { $lt: before } } : {}) }, { populate: ['workspace'], orderBy: { workspace: 'desc' }, limit });
  }
}
