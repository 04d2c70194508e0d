import { mkdirSync } from 'node:fs';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import type { EntityManager, MikroORM } from '@mikro-orm/sql';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';

export type Engine = 'pglite' | 'postgresql';

export interface DatabaseOptions {
  /** `postgres://…` selects PostgreSQL; otherwise the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory, or `memory://` for a throwaway in-memory database. */
  dataDir?: string | undefined;
  /** Largest PostgreSQL connection pool. */
  poolMax?: number | undefined;
}

export interface Database {
  engine: Engine;
  orm: MikroORM;
  /** A fresh EntityManager for one request or one job; never share the global one. */
  fork(): EntityManager;
  /** True when the database answers a trivial query. */
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

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
    if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
    orm = (await PgliteORM.init({ ...common, dbName: dataDir })) as unknown as MikroORM;
  }
  try {
    await orm.migrator.up();
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
    close: () => orm.close(true),
  };
}
