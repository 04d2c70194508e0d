/**
 * How long a request waits on a hung PostgreSQL (issue 36): a connection from a full pool, then a
 * statement that never returns, at most 10 s in all by default, then 503 (shown on a real hung
 * database, with shorter settings, in database-outages.test.ts). Both settings stay configurable.
 */
import { longestDatabaseWait } from '@lfk/db';
import { loadConfig } from '@lfk/server';
import { describe, expect, it } from 'vitest';

const POSTGRES = { DATABASE_URL: 'postgres://lfk@127.0.0.1:5432/lfk', LFK_SECRET_KEY: 'a'.repeat(64) };

describe('a request waits for the database at most a bounded time', () => {
  it('10 s by default: a pooled connection within 3 s, a statement within 6 s, the client giving up a second later', () => {
    const { databaseTimeouts } = loadConfig(POSTGRES);
    expect(databaseTimeouts).toEqual({ connectMs: 3000, statementMs: 6000 });
    expect(longestDatabaseWait(databaseTimeouts)).toBe(10_000);
  });

  it('configurable: longer for a database that is slow on purpose, shorter for an impatient balancer', () => {
    const { databaseTimeouts } = loadConfig({ ...POSTGRES, LFK_DATABASE_CONNECT_TIMEOUT: '1', LFK_DATABASE_STATEMENT_TIMEOUT: '2' });
    expect(longestDatabaseWait(databaseTimeouts)).toBe(1000 + 2000 + 1000);
  });
});
