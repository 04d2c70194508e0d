import { useQuery } from '@tanstack/react-query';
import { PAGE_LIMIT } from '@lfk/vocabulary';
import { trpc } from '../api/trpc.ts';

/**
 * The workspace's members by user id, to show a person (an email) where the API gives an id:
 * a key's creator, an audit event's actor. Members see the member list, so anyone can call it.
 */
export function useMemberNames(workspaceId: string) {
  const members = useQuery(trpc.members.list.queryOptions({ workspace_id: workspaceId, limit: PAGE_LIMIT.max }));
  const byId = new Map((members.data?.data ?? []).map((m) => [m.user_id, m.name ? `${m.name} (${m.email})` : m.email]));
  return {
    members,
    /**
     * A person's name and email; a former member by the address the API gave with the id (an audit
     * event's), else by id; a deleted account as such.
     */
    nameOf: (userId: string | null, email?: string | null) =>
      userId === null
        ? 'a deleted account'
        : (byId.get(userId) ?? (email ? `${email} (no longer a member)` : email === null ? 'a deleted account' : `${userId} (no longer a member)`)),
  };
}
