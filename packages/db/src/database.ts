import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import type { EntityManager, MikroORM } from '@mikro-orm/sql';
import { entities } from './entities/index.ts';
import { migrationsList } from './migrations/index.ts';
import type { PgliteThread } from './pglite-thread/thread.ts';
import { startThread, takeStartedEarly } from './pglite-thread/early-start.ts';
import { tagFailures } from './database-failures.ts';
import { usePoolForPrepared } from './prepared-statements.ts';
import { useGroupCommit } from './group-commit.ts';
import { ChannelListener, type NotificationHandlers, PgliteChannelListener, type Subscription } from './notifications.ts';

export type Engine = 'pglite' | 'postgresql';

export interface DatabaseOptions {
  /** `postgres://…` selects PostgreSQL; otherwise the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory, or `memory://` for a throwaway in-memory database. */
  dataDir?: string | undefined;
  /** Largest PostgreSQL connection pool. */
  poolMax?: number | undefined;
  /** How long PostgreSQL may take to connect, answer and run a statement (defaults: DATABASE_TIMEOUTS). */
  timeouts?: Partial<DatabaseTimeouts> | undefined;
  /**
   * A PGlite data directory image (PGlite's `dumpDataDir`) to start an in-memory database from,
   * instead of running initdb: tests copy one migrated database in well under a second.
   */
  pgliteImage?: Blob | undefined;
}

/**
 * How long PostgreSQL gets, so that a database that is down or hung turns into prompt 503s rather
 * than requests that pile up. PGlite runs in the process and has none of these.
 */
export interface DatabaseTimeouts {
  /**
   * Making a connection, and waiting for one from a full pool (`pg-pool`'s one setting for both).
   * A stopped postmaster takes connections and never answers them: this is what ends the wait.
   */
  connectMs: number;
  /**
   * Any one statement, on the server (`statement_timeout`). The client gives up a little later
   * (`query_timeout`), for a server that cannot even say so; migrations have no limit.
   */
  statementMs: number;
}

/**
 * A web request waits for a hung database at most `longestDatabaseWait` of these: 3 + 6 + 1 = 10 s
 * (a connection from a full pool, then a statement that never returns), then answers 503.
 */
export const DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 3000, statementMs: 6000 };

/** A transaction left open without a statement this long ends (its locks freed): a client gone mid-transaction. */
const IDLE_IN_TRANSACTION_MS = 60_000;
/** TCP keepalive from this long idle finds a connection whose server vanished without closing it. */
const KEEPALIVE_AFTER_MS = 10_000;
/**
 * The client waits this much longer than the server's statement_timeout, so the server's cleaner
 * answer comes first when it can give one; a second is plenty for a cancellation to arrive.
 */
const CLIENT_GRACE_MS = 1000;

/** How long the client waits for one statement before giving up on a server that cannot say so (`query_timeout`). */
const clientGivesUpAfter = (t: DatabaseTimeouts) => t.statementMs + Math.min(CLIENT_GRACE_MS, t.statementMs);

/** The longest one request waits on a hung PostgreSQL: a pooled connection, then one statement. */
export const longestDatabaseWait = (t: DatabaseTimeouts) => t.connectMs + clientGivesUpAfter(t);
/** How long `/readyz` waits for its `select 1`. */
const READY_CHECK_MS = 2000;

export interface PoolUse {
  open: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface Database {
  engine: Engine;
  orm: MikroORM;
  /** A fresh EntityManager for one request or one job; never share the global one. */
  fork(): EntityManager;
  /** The PostgreSQL pool's connections (open, idle, requests waiting for one, the most it opens); null on PGlite. */
  poolUse(): PoolUse | null;
  /** True when the database answers a trivial query. */
  isReady(): Promise<boolean>;
  /**
   * Hears `NOTIFY` on `channel` from every process on this database: on PostgreSQL over a
   * connection of its own, as soon as the server sends it; on PGlite (one process) before the
   * statement that committed it resolves.
   */
  listen(channel: string, handlers: NotificationHandlers): Subscription;
  /**
   * Settles if the embedded database stops without being closed (its thread failed or ran out of
   * memory): every statement fails from then on, so the server should stop. Never on PostgreSQL,
   * whose outages pass.
   */
  readonly lost: Promise<Error>;
  close(): Promise<void>;
}

/** Sent with a key's hash whenever a key stops being valid (a trigger in the migrations sends it). */
export const API_KEY_REVOKED_CHANNEL = 'lfk_api_key_revoked';

/**
 * Sent with a form's id whenever what a submission reads of it changes, or it is deleted, or a
 * webhook endpoint of it is added, removed, enabled or disabled (triggers in the migrations send it).
 */
export const FORM_CHANGED_CHANNEL = 'lfk_form_changed';

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
  let pool: pg.Pool | undefined;
  let thread: PgliteThread | undefined;
  const poolMax = options.poolMax ?? 10;
  if (options.databaseUrl) {
    engine = 'postgresql';
    // Migrations may run long (an index on a big table): an ORM of their own, without the timeouts.
    await migratePostgres(options.databaseUrl, common);
    const timeouts = { ...DATABASE_TIMEOUTS, ...options.timeouts };
    orm = (await PostgresORM.init({
      ...common,
      clientUrl: options.databaseUrl,
      pool: { min: 0, max: poolMax },
      driverOptions: {
        connectionTimeoutMillis: timeouts.connectMs,
        statement_timeout: timeouts.statementMs,
        query_timeout: clientGivesUpAfter(timeouts),
        idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
        keepAlive: true,
        keepAliveInitialDelayMillis: KEEPALIVE_AFTER_MS,
        onPoolCreated: (created: pg.Pool) => {
          pool = created;
          tagFailures(created);
        },
      },
    })) as unknown as MikroORM;
    usePoolForPrepared(orm.em.getConnection(), () => pool);
  } else {
    engine = 'pglite';
    const dataDir = options.dataDir ?? 'memory://';
    const image = options.pgliteImage;
    // MikroORM copies its driver options, and a copied Blob has lost its contents: PGlite is
    // handed a plain object with the one method of a Blob it calls.
    const loadDataDir = image && { type: image.type, arrayBuffer: () => image.arrayBuffer() };
    const started = await ((!image && takeStartedEarly(dataDir)) || startThread(dataDir, loadDataDir));
    thread = started;
    let opened: MikroORM | undefined;
    try {
      // Handed as a function: MikroORM copies its driver options, and a copy would lose the thread.
      opened = (await PgliteORM.init({ ...common, dbName: dataDir, driverOptions: { pglite: () => started } })) as unknown as MikroORM;
      // One statement at a time in one thread: small writes outside transactions go in groups.
      useGroupCommit(opened.em.getConnection());
      await opened.migrator.up();
    } catch (error) {
      await opened?.close(true);
      await started.close();
      throw error;
    }
    orm = opened;
  }
  return {
    engine,
    orm,
    fork: () => orm.em.fork(),
    lost: thread?.lost ?? new Promise<Error>(() => {}),
    poolUse: () => (pool ? { open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolMax } : null),
    async isReady() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, READY_CHECK_MS, false)));
      const answered = orm.em
        .getConnection()
        .execute('select 1')
        .then(() => true)
        .catch(() => false);
      try {
        return await Promise.race([answered, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    listen(channel, handlers) {
      const url = options.databaseUrl;
      return url ? new ChannelListener(url, channel, handlers).start() : new PgliteChannelListener(thread!, channel, handlers).start();
    },
    async close() {
      await orm.close(true);
      await thread?.close();
    },
  };
}

/** Any number to call the migration lock by; the same in every lfk process. */
const MIGRATION_LOCK_ID = 0x6c666b;

/**
 * Replicas starting together on a fresh PostgreSQL would otherwise race to create the same tables:
 * an advisory lock, held on its own connection, lets one migrate while the others wait.
 */
async function migratePostgres(databaseUrl: string, common: object): Promise<void> {
  const lock = new pg.Client({ connectionString: databaseUrl, application_name: 'lfk-migrations' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const orm = await PostgresORM.init({ ...common, clientUrl: databaseUrl, pool: { min: 0, max: 1 } });
    try {
      await orm.migrator.up();
    } finally {
      await orm.close(true);
    }
  } finally {
    await lock.end();
  }
}
