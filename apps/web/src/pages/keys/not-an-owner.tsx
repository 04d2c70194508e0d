import { Loading } from '../../components/states.tsx';
import { useMemberNames } from '../../layout/people.ts';

/** What a member who is not an owner sees instead of the keys: why, and whom to ask. */
export function NotAnOwner({ workspaceId }: { workspaceId: string }) {
  const { members } = useMemberNames(workspaceId);
  const owners = members.data?.data.filter((m) => m.role === 'owner').map((m) => m.email) ?? [];
  return (
    <div className="notice" role="note">
      <p>
        <strong>Only owners of this workspace can create, see and revoke its API keys.</strong> A key acts for the whole workspace, so handing them out is left
        to the people who own it. You are a member: you can work with forms and read submissions.
      </p>
      {members.isPending ? <Loading what="the owners" /> : owners.length > 0 ? <p>To get a key, or to become an owner, ask {owners.join(', ')}.</p> : null}
    </div>
  );
}
