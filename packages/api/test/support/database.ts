import { countRows, rawSql } from '@lfk/db/testing';
import type { Services } from '../../src/context.ts';

/** Raw SQL against the services' database: what a test reads (or, for a corrupted-data case, writes) behind the procedures. */
export function sql<T = Record<string, unknown>>(services: Services, query: string, params: unknown[] = []): Promise<T[]> {
  return rawSql<T>(services.db, query, params);
}

/** The workspace's audit events of `action`, oldest first. */
export function auditActions(
  services: Services,
  workspaceId: string,
  action: string,
): Promise<{ actor_type: string; actor_id: string; target_id: string; data: any }[]> {
  return sql(services, 'select actor_type, actor_id, target_id, data from audit_events where workspace_id = ? and action = ? order by id', [
    workspaceId,
    action,
  ]);
}

/** How many rows `from` holds (`'forms where id = ?'`), as the server suite's `t.count`. */
export function count(services: Services, from: string, params: unknown[] = []): Promise<number> {
  return countRows(services.db, from, params);
}
