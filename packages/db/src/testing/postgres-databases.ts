import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Every database the tests make is named `lfk_test_<run>_…`, so a run can drop all of its own. */
export const RUN_DATABASE_PREFIX = 'lfk_test_';

export const templateName = (run: string) => `${RUN_DATABASE_PREFIX}${run}_template`;

/** `baseUrl` with its database swapped for `name`. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement on the database at `url`, on a connection of its own, closed after it. */
export async function adminQuery<T = Record<string, unknown>>(url: string, query: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * A new database copied from this run's migrated template: a file copy, far quicker than
 * migrating. PostgreSQL refuses to copy a template while another copy of it is being made, so
 * that refusal is tried again.
 */
export async function copyOfTemplate(baseUrl: string, run: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${RUN_DATABASE_PREFIX}${run}_${randomBytes(6).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(baseUrl, `create database ${name} template ${templateName(run)}`);
      break;
    } catch (error) {
      // 55006: "source database is being accessed by other users".
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url: databaseUrl(baseUrl, name),
    drop: () => adminQuery(baseUrl, `drop database if exists ${name} with (force)`).then(() => undefined),
  };
}
