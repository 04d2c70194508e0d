import { User } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { startSession } from '../sessions/sessions.ts';
import { createWorkspace, personalWorkspaceName } from '../workspaces/workspaces.ts';

/**
 * A new account, queued on `em` for one flush: the user, the personal workspace they own (with its
 * default project and audit event) and a first session, whose token goes to the caller once.
 */
export function openAccount(em: EntityManager, account: { email: string; name?: string | undefined; passwordHash: string }, now: Date) {
  const user = em.getRepository(User).register(account.email, account.name ?? null, account.passwordHash);
  const workspace = createWorkspace(em, user.id, personalWorkspaceName(account.name), { type: 'user', id: user.id });
  const session = startSession(em, user.id, now);
  return { user, workspace, session };
}
