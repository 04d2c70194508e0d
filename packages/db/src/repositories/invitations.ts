import type { Role } from '@lfk/vocabulary';
import type { IInvitation } from '../entities/invitation.ts';
import { newId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

/** An invitation as its link shows it: enough to say where it leads, before anyone signs in. */
export interface InvitationReading {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: Role;
  /** The sender's account; null once it is deleted. */
  invitedBy: string | null;
  invitedByName: string | null;
  invitedByEmail: string | null;
  expiresAt: Date;
}

export class InvitationRepository extends BaseRepository<IInvitation> {
  /**
   * Invites `email` (lower-cased) into the workspace with a fresh link; an address already invited
   * gets the new role and link in place of its old ones. Answers the invitation as stored.
   */
  async invite(invitation: {
    workspaceId: string;
    email: string;
    role: Role;
    tokenHash: string;
    invitedBy: string;
    expiresAt: Date;
    now: Date;
  }): Promise<IInvitation> {
    const rows = await this.em.execute<{ id: string }[]>(
      `insert into invitations (id, workspace_id, email, role, token_hash, invited_by_id, expires_at, sent_at, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (workspace_id, email) do update
         set role = excluded.role, token_hash = excluded.token_hash, invited_by_id = excluded.invited_by_id,
             expires_at = excluded.expires_at, sent_at = excluded.sent_at
       returning id`,
      [
        newId('inv'),
        invitation.workspaceId,
        invitation.email,
        invitation.role,
        invitation.tokenHash,
        invitation.invitedBy,
        invitation.expiresAt,
        invitation.now,
        invitation.now,
      ],
    );
    return this.findOneOrFail({ id: rows[0]!.id }, { refresh: true });
  }

  /**
   * A new link for a pending invitation, resent by `sentBy`, who vouches for it from now on: the
   * old link stops working. Null when the workspace has no such invitation.
   */
  async renew(
    workspaceId: string,
    invitationId: string,
    renewal: { tokenHash: string; sentBy: string; expiresAt: Date; now: Date },
  ): Promise<IInvitation | null> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update invitations set token_hash = ?, invited_by_id = ?, expires_at = ?, sent_at = ? where id = ? and workspace_id = ? returning id',
      [renewal.tokenHash, renewal.sentBy, renewal.expiresAt, renewal.now, invitationId, workspaceId],
    );
    if (rows.length === 0) return null;
    return this.findOneOrFail({ id: invitationId }, { refresh: true });
  }

  /** Up to `limit` of the workspace's invitations, newest first, ids below `before`. */
  pendingIn(workspaceId: string, before: string | undefined, limit: number) {
    return this.newestFirst({ workspace: workspaceId }, before, limit);
  }

  /** The workspace's invitations whose link still works: an expired one takes no room (resend it, or it is replaced). */
  countLiveIn(workspaceId: string, now: Date): Promise<number> {
    return this.count({ workspace: workspaceId, expiresAt: { $gt: now } });
  }

  /** Deletes one, answering the address it was for; null when the workspace has no such invitation. */
  async cancel(workspaceId: string, invitationId: string): Promise<{ email: string } | null> {
    const rows = await this.em.execute<{ email: string }[]>('delete from invitations where id = ? and workspace_id = ? returning email', [
      invitationId,
      workspaceId,
    ]);
    return rows[0] ?? null;
  }

  /**
   * Deletes the pending invitations `senderId` sent, in one workspace or in all, answering them:
   * they end with their sender's standing.
   */
  async cancelSentBy(senderId: string, workspaceId?: string): Promise<{ id: string; workspaceId: string; email: string; role: Role }[]> {
    const rows = await this.em.execute<{ id: string; workspace_id: string; email: string; role: Role }[]>(
      `delete from invitations where invited_by_id = ?${workspaceId === undefined ? '' : ' and workspace_id = ?'} returning id, workspace_id, email, role`,
      workspaceId === undefined ? [senderId] : [senderId, workspaceId],
    );
    return rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id, email: row.email, role: row.role }));
  }

  /** What the link behind this token hash leads to, changing nothing. */
  async read(tokenHash: string): Promise<InvitationReading | null> {
    const rows = await this.em.execute<
      {
        id: string;
        workspace_id: string;
        workspace_name: string;
        email: string;
        role: Role;
        invited_by_id: string | null;
        invited_by_name: string | null;
        invited_by_email: string | null;
        expires_at: string | Date;
      }[]
    >(
      `select i.id, i.workspace_id, w.name as workspace_name, i.email, i.role,
              i.invited_by_id, u.name as invited_by_name, u.email as invited_by_email, i.expires_at
         from invitations i join workspaces w on w.id = i.workspace_id left join users u on u.id = i.invited_by_id
        where i.token_hash = ?`,
      [tokenHash],
    );
    const row = rows[0];
    return row
      ? {
          id: row.id,
          workspaceId: row.workspace_id,
          workspaceName: row.workspace_name,
          email: row.email,
          role: row.role,
          invitedBy: row.invited_by_id,
          invitedByName: row.invited_by_name,
          invitedByEmail: row.invited_by_email,
          expiresAt: new Date(row.expires_at),
        }
      : null;
  }

  /** Spends the link: deletes the invitation and answers it, or null when it is gone. Of two acceptances at once, one gets it. */
  async spend(tokenHash: string): Promise<{ id: string; workspaceId: string; email: string; role: Role; invitedBy: string | null; expiresAt: Date } | null> {
    const rows = await this.em.execute<
      { id: string; workspace_id: string; email: string; role: Role; invited_by_id: string | null; expires_at: string | Date }[]
    >('delete from invitations where token_hash = ? returning id, workspace_id, email, role, invited_by_id, expires_at', [tokenHash]);
    const row = rows[0];
    return row
      ? { id: row.id, workspaceId: row.workspace_id, email: row.email, role: row.role, invitedBy: row.invited_by_id, expiresAt: new Date(row.expires_at) }
      : null;
  }
}
