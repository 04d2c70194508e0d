import { DriverException } from '@mikro-orm/core';
import pg from 'pg';

/**
 * How a failed query says the database, not the query, was at fault: `unreachable` (stopped,
 * refusing connections, dropping them, or not answering in time), `timed_out` (a statement ran
 * past `statement_timeout`: the database is up but too slow or too locked to answer now) or
 * `busy` (every connection of this process's pool was in use past the connect timeout: the
 * database may be fine, this process has more requests than connections).
 */
export type DatabaseFailure = 'unreachable' | 'timed_out' | 'busy';

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's SQLSTATEs for a server going away: class 08 (connection exception), shutting down
 * (57P01, 57P02), starting up or recovering (57P03), out of connections (53300).
 */
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const STATEMENT_TIMEOUT = '57014';

/**
 * What `pg` and `pg-pool` say, with no code, of a connection that ended or never came. A new
 * connection PostgreSQL did not take in time ends as "Connection terminated due to connection
 * timeout"; pg-pool's "timeout exceeded when trying to connect" is a request that waited for a
 * pooled connection while all were in use (`busy`).
 */
const POOL_EXHAUSTED = /^timeout exceeded when trying to connect/;
const UNREACHABLE_MESSAGES = [/^Connection terminated/, /^Query read timeout/, /is not queryable/, /^Client has encountered a connection error/];

/** Marks an error that came out of the database's pool or one of its connections (`tagFailures`). */
const FROM_THE_DATABASE = Symbol('lfk.fromTheDatabase');

/**
 * The database failure behind `error`, or null. Read are the ORM's errors, PostgreSQL's, and what
 * the pool and its connections threw (as thrown, or as the cause of what was thrown, as tRPC wraps
 * them); no other socket error: an SMTP server or a webhook receiver refusing a connection is not
 * the database going away.
 */
export function databaseFailureOf(error: unknown): DatabaseFailure | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const fromTheDatabase =
      current instanceof DriverException || current instanceof pg.DatabaseError || (current as { [FROM_THE_DATABASE]?: true })[FROM_THE_DATABASE];
    if (fromTheDatabase) return failureOf(current as { code?: unknown; message?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function failureOf({ code, message }: { code?: unknown; message?: unknown }): DatabaseFailure | null {
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || UNREACHABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'unreachable';
    if (code === STATEMENT_TIMEOUT) return 'timed_out';
  }
  if (typeof message !== 'string') return null;
  if (POOL_EXHAUSTED.test(message)) return 'busy';
  return UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message)) ? 'unreachable' : null;
}

type Callback = (error: Error | undefined, ...rest: unknown[]) => void;

const tagged = <E>(error: E): E => (error !== null && typeof error === 'object' ? Object.assign(error, { [FROM_THE_DATABASE]: true }) : error);

/**
 * Marks what `pool` and its connections throw as the database's: the ORM passes some of it on
 * unconverted (a connection refused as a transaction begins, one reset at its commit), and a
 * refused or reset connection there is the database's, whatever its code says.
 */
export function tagFailures(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (callback?: Callback) => Promise<pg.PoolClient> | undefined;
  pool.connect = ((callback?: Callback) => {
    if (callback) return connect((error, ...rest) => callback(tagged(error), ...rest));
    return connect()!.catch((error: unknown) => {
      throw tagged(error);
    });
  }) as typeof pool.connect;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const result = query(...args);
      return result instanceof Promise
        ? result.catch((error: unknown) => {
            throw tagged(error);
          })
        : result;
    }) as typeof client.query;
  });
}
