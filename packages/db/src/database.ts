import { mkdirSync } from 'node:fs';
import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import type { EntityManager, MikroORM } from '@mikro-orm/sql';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';
import { initialiseDataDirOutOfProcess, PGLITE_START_PARAMS } from './pglite-settings.ts';
import { ChannelListener, type NotificationHandlers, type Subscription } from './notifications.ts';

export type Engine = 'pglite' | 'postgresql';

export interface DatabaseOptions {
  /** `postgres://…` selects PostgreSQL; otherwise the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory, or `memory://` for a throwaway in-memory database. */
  dataDir?: string | undefined;
  /** Largest PostgreSQL connection pool. */
  poolMax?: number | undefined;
  /**
   * A PGlite data directory image (PGlite's `dumpDataDir`) to start an in-memory database from,
   * instead of running initdb: tests copy one migrated database in well under a second.
   */
  pgliteImage?: Blob | undefined;
}

export interface Database {
  engine: Engine;
  orm: MikroORM;
  /** A fresh EntityManager for one request or one job; never share the global one. */
  fork(): EntityManager;
  /** True when the database answers a trivial query. */
  isReady(): Promise<boolean>;
  /**
   * Hears `NOTIFY` on `channel` from every process on this database. Null on PGlite, which only
   * one process can open: there is nobody else to hear from.
   */
  listen(channel: string, handlers: NotificationHandlers): Subscription | null;
  close(): Promise<void>;
}

/** Sent with a key's hash whenever a key stops being valid (a trigger in the migrations sends it). */
export const API_KEY_REVOKED_CHANNEL = 'lfk_api_key_revoked';

export const MIGRATIONS = {
  migrationsList,
  snapshotName: '.snapshot-lfk',
  path: new URL('./migrations', import.meta.url).pathname,
  snapshotOnMigrate: false,
  silent: true,
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const common = { entities, extensions: [Migrator], migrations: MIGRATIONS, debug: false };
  let orm: MikroORM;
  let engine: Engine;
  if (options.databaseUrl) {
    engine = 'postgresql';
    orm = (await PostgresORM.init({
      ...common,
      clientUrl: options.databaseUrl,
      pool: { min: 0, max: options.poolMax ?? 10 },
    })) as unknown as MikroORM;
  } else {
    engine = 'pglite';
    const dataDir = options.dataDir ?? 'memory://';
    if (!dataDir.startsWith('memory://')) {
      mkdirSync(dataDir, { recursive: true });
      initialiseDataDirOutOfProcess(dataDir);
    }
    const image = options.pgliteImage;
    // MikroORM copies its driver options, and a copied Blob has lost its contents: PGlite is
    // handed a plain object with the one method of a Blob it calls.
    const loadDataDir = image && { type: image.type, arrayBuffer: () => image.arrayBuffer() };
    const driverOptions = { startParams: [...PGLITE_START_PARAMS], ...(loadDataDir ? { loadDataDir } : {}) };
    orm = (await PgliteORM.init({ ...common, dbName: dataDir, driverOptions })) as unknown as MikroORM;
  }
  try {
    await migrate(orm, options.databaseUrl);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return {
    engine,
    orm,
    fork: () => orm.em.fork(),
    async isReady() {
      try {
        await orm.em.getConnection().execute('select 1');
        return true;
      } catch {
        return false;
      }
    },
    listen(channel, handlers) {
      const url = options.databaseUrl;
      return url ? new ChannelListener(url, channel, handlers).start() : null;
    },
    close: () => orm.close(true),
  };
}

/** Any number to call the migration lock by; the same in every lfk process. */
const MIGRATION_LOCK_ID = 0x6c666b;

/**
 * Replicas starting together on a fresh PostgreSQL would otherwise race to create the same tables:
 * an advisory lock, held on its own connection, lets one migrate while the others wait.
 */
async function migrate(orm: MikroORM, databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) {
    await orm.migrator.up();
    return;
  }
  const lock = new pg.Client({ connectionString: databaseUrl, application_name: 'lfk-migrations' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await orm.migrator.up();
  } finally {
    await lock.end();
  }
}
