import type { Services } from '../../src/context.ts';
import { count, sql } from './database.ts';

/** The workspace's name as stored: what an owner types to delete it. */
export async function workspaceName(services: Services, workspaceId: string): Promise<string> {
  const [row] = await sql<{ name: string }>(services, 'select name from workspaces where id = ?', [workspaceId]);
  return row!.name;
}

const HELD = ['api_keys', 'forms', 'memberships', 'projects', 'audit_events', 'invitations'];

/** How many rows of each table a workspace holds (its keys, forms, memberships, projects, audit events, invitations): all 0 once it is gone. */
export function heldBy(services: Services, workspaceId: string): Promise<number[]> {
  return Promise.all(HELD.map((table) => count(services, `${table} where workspace_id = ?`, [workspaceId])));
}
