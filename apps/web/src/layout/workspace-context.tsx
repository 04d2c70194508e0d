import type { RouterOutputs } from '@lfk/client';
import { createContext, useContext } from 'react';

export type Workspace = RouterOutputs['workspaces']['list']['data'][number];

export const WorkspaceContext = createContext<Workspace | null>(null);

/** The workspace the page is in (with the caller's role): every page under `/w/$workspaceId` has one. */
export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside a workspace page');
  return workspace;
}
