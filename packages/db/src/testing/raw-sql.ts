import type { Database } from '../database.ts';

/** Raw SQL against a test's database: what a test reads (or, for a corrupted-data case, writes) behind the code it tests. */
export function rawSql<T = Record<string, unknown>>(db: Database, query: string, params: unknown[] = []): Promise<T[]> {
  return db.fork().execute(query, params) as Promise<T[]>;
}

/** How many rows `select count(*) from <fromWhere>` counts, e.g. `countRows(db, 'forms where id = ?', [id])`. */
export async function countRows(db: Database, fromWhere: string, params: unknown[] = []): Promise<number> {
  return (await rawSql<{ n: number }>(db, `select count(*)::int as n from ${fromWhere}`, params))[0]!.n;
}
