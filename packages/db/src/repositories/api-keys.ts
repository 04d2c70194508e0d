import { SqlEntityRepository } from '@mikro-orm/sql';
import type { IApiKey } from '../entities/api-key.ts';

/** What verifying a key needs: who it is and whose. */
export interface ActiveKey {
  id: string;
  workspaceId: string;
}

export class ApiKeyRepository extends SqlEntityRepository<IApiKey> {
  /**
   * The unrevoked key with this hash. On the hot path of every key-authenticated request: one
   * indexed query, no entity hydrated.
   */
  async findActiveByHash(keyHash: string): Promise<ActiveKey | null> {
    const rows = await this.em.execute<{ id: string; workspace_id: string; revoked_at: unknown }[]>(
      'select id, workspace_id, revoked_at from api_keys where key_hash = ?',
      [keyHash],
    );
    const row = rows[0];
    return row && row.revoked_at === null ? { id: row.id, workspaceId: row.workspace_id } : null;
  }

  countActive(workspaceId: string): Promise<number> {
    return this.count({ workspace: workspaceId, revokedAt: null });
  }

  /**
   * Revokes the key if it is still active, as one conditional update, so two revokes at once
   * record one revocation. The revoked key's hash, or null when nothing was revoked.
   */
  async revoke(keyId: string, workspaceId: string, revokedBy: string, at = new Date()): Promise<string | null> {
    const revoked = await this.em.execute<{ key_hash: string }[]>(
      `update api_keys set revoked_at = ?, revoked_by_id = ?
        where id = ? and workspace_id = ? and revoked_at is null
        returning key_hash`,
      [at.toISOString(), revokedBy, keyId, workspaceId],
    );
    return revoked[0]?.key_hash ?? null;
  }

  /** Records uses in one statement; a use older than the one stored changes nothing. */
  async touchLastUsed(uses: ReadonlyMap<string, Date>): Promise<void> {
    const rows = [...uses];
    const values = rows.map(() => '(?, ?::timestamptz)').join(', ');
    await this.em.execute(
      `update api_keys as k set last_used_at = v.at
         from (values ${values}) as v(id, at)
        where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.at)`,
      rows.flatMap(([id, at]) => [id, at.toISOString()]),
    );
  }
}
