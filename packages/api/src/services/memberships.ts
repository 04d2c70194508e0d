import { isId, Membership } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Role } from '@lfk/db/constants';

/** The user's role in the workspace, or null when not a member (or no such workspace). */
export async function roleIn(em: EntityManager, workspaceId: string, userId: string): Promise<Role | null> {
  if (!isId('ws', workspaceId)) return null;
  const membership = await em.findOne(Membership, { workspace: workspaceId, user: userId }, { fields: ['role'] });
  return membership?.role ?? null;
}
