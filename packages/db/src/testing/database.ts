/**
 * The databases tests run on. Each test worker opens one database, a copy of the run's migrated
 * one (global-setup.ts), the first time a file asks for it, and every file the worker runs after
 * that shares it; it is emptied before each file (reset-between-files.ts), so a file starts from
 * nothing, as it did with a database of its own. A test that breaks its database on purpose
 * (renames a table, cuts connections, checks that shutdown closes it) asks for one of its own.
 */
import { readFileSync } from 'node:fs';
import type { PgliteThread } from '../pglite-thread/thread.ts';
import { type Database, type DatabaseTimeouts, openDatabase } from '../database.ts';
import { inject } from 'vitest';
import { copyOfTemplate } from './postgres-databases.ts';

export { adminQuery } from './postgres-databases.ts';
export { countRows, rawSql } from './raw-sql.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Made by global-setup.ts. PGlite: the file with the migrated image. PostgreSQL: the run's id, naming its template. */
    lfkTestDatabase: { engine: 'pglite'; image: string } | { engine: 'postgresql'; run: string };
  }
}

/** Engine under test: PostgreSQL when TEST_DATABASE_URL is set, else in-memory PGlite. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
export const ENGINE = TEST_DATABASE_URL ? 'postgresql' : 'pglite';

export interface TestDatabase {
  db: Database;
  /** On PostgreSQL, the database's URL (for a second replica or a child process); undefined on PGlite. */
  url: string | undefined;
  /** Closes a database of the test's own, and on PostgreSQL drops it; nothing for the shared one. */
  release(): Promise<void>;
}

/** The PGlite under a database on the embedded engine (in a thread of its own). */
export function pgliteOf(db: Database): Promise<PgliteThread> {
  return (db.orm.driver.getConnection() as unknown as { getNativeClient(): Promise<PgliteThread> }).getNativeClient();
}

let image: Blob | undefined;

/** A new database with every migration applied, copied from the run's migrated one. */
async function openMigratedCopy(): Promise<TestDatabase> {
  const provided = inject('lfkTestDatabase');
  if (!provided) throw new Error("no migrated test database: the suite's vitest config must use testWorldOptions (vitest.shared.ts)");
  if (provided.engine === 'pglite') {
    image ??= new Blob([readFileSync(provided.image)]);
    const db = await openDatabase({ dataDir: 'memory://', pgliteImage: image });
    return { db, url: undefined, release: () => db.close() };
  }
  const copy = await copyOfTemplate(TEST_DATABASE_URL!, provided.run);
  const db = await openDatabase({ databaseUrl: copy.url, poolMax: 20 });
  return {
    db,
    url: copy.url,
    async release() {
      await db.close();
      await copy.drop();
    },
  };
}

/** A database of the caller's own, released (closed, and dropped on PostgreSQL) by `release`. */
export const ownDatabase = openMigratedCopy;

/**
 * Another replica's view of an existing PostgreSQL database (`url`): a pool of its own, as a
 * second server process would have, closed on release and never dropped (it is not its own).
 */
export async function replicaOf(url: string, timeouts?: Partial<DatabaseTimeouts>): Promise<TestDatabase> {
  const db = await openDatabase({ databaseUrl: url, poolMax: 20, timeouts });
  return { db, url, release: () => db.close() };
}

/**
 * A database for a server process a test spawns, which opens it itself: on PostgreSQL a new
 * migrated copy (its URL, and how to drop it), so the process finds only what the test puts there,
 * never what earlier runs left in `TEST_DATABASE_URL`'s own database; on PGlite null (the process
 * opens a data directory of the test's).
 */
export async function databaseForProcess(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const provided = inject('lfkTestDatabase');
  return provided?.engine === 'postgresql' ? copyOfTemplate(TEST_DATABASE_URL!, provided.run) : null;
}

let shared: Promise<TestDatabase> | undefined;
let tables: Promise<string> | undefined;

/**
 * The worker's shared database. What the caller gets cannot close it: a server's shutdown closes
 * its database, and the next file's server needs this one.
 */
export async function sharedDatabase(): Promise<TestDatabase> {
  shared ??= openMigratedCopy();
  const { db, url } = await shared;
  return { db: { ...db, close: async () => {} }, url, release: async () => {} };
}

/** Empties the shared database, if this worker has opened it: every table but the migrations' record. */
export async function resetSharedDatabase(): Promise<void> {
  if (!shared) return;
  const { db } = await shared;
  const em = db.fork();
  tables ??= em
    .execute<{ name: string }[]>(
      `select format('%I', tablename) as name from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations'`,
    )
    .then((rows) => rows.map((row) => row.name).join(', '));
  await em.execute(`truncate ${await tables} restart identity cascade`);
}
