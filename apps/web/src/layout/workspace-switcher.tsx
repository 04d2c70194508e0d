import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { CreateWorkspaceDialog } from './create-workspace-dialog.tsx';
import type { Workspace } from './workspace-context.tsx';

/**
 * The workspace every page is about, by name, and the way to another: a native select (a phone
 * shows its own picker; the keyboard works as everywhere) that keeps the page's kind, and "New
 * workspace".
 */
export function WorkspaceSwitcher({ workspaces, current }: { workspaces: Workspace[]; current: string }) {
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const known = workspaces.some((w) => w.id === current);
  return (
    <div className="switcher">
      <label htmlFor="workspace-switcher">Workspace</label>
      <select
        id="workspace-switcher"
        value={known ? current : ''}
        onChange={(event) => navigate({ to: '/w/$workspaceId/forms', params: { workspaceId: event.target.value } })}
      >
        {!known && <option value="">Choose a workspace</option>}
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
            {w.role === 'owner' ? '' : ' (member)'}
          </option>
        ))}
      </select>
      <button type="button" className="secondary" onClick={() => setCreating(true)}>
        New workspace
      </button>
      <CreateWorkspaceDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
