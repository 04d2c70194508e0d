/**
 * A request that waits for a pooled connection while every one is in use is turned away as `busy`,
 * not as the database being unreachable: under a burst of load the database still answers, and
 * taking the wait for an outage had a replica answer 503 to everything while it "probed" a healthy
 * database (issue 52's soak). A connection PostgreSQL itself does not take in time stays `unreachable`.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { databaseFailureOf, openDatabase, tagFailures } from '../src/index.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

describe.runIf(!!TEST_DATABASE_URL)('a full pool (PostgreSQL)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('is busy: the waiting statement fails as busy, the one holding the connection finishes, and the pool serves again', async () => {
    const db = await openDatabase({ databaseUrl: TEST_DATABASE_URL!, poolMax: 1, timeouts: { connectMs: 200 } });
    cleanups.push(() => db.close());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const taken = new Promise<void>((resolve) => (holding = resolve));
    const holder = db.fork().transactional(async (em) => {
      await em.execute('select 1');
      holding();
      await held;
      return (await em.execute<{ answer: number }[]>('select 1 as answer'))[0]!.answer;
    });
    await taken;

    const waiting = await db
      .fork()
      .execute('select 2')
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(waiting).toBeInstanceOf(Error);
    expect(databaseFailureOf(waiting)).toBe('busy');

    release();
    expect(await holder).toBe(1);
    expect(await db.fork().execute<{ answer: number }[]>('select 3 as answer')).toEqual([{ answer: 3 }]);
  });

  it('a database that does not take a new connection in time is unreachable', async () => {
    // Accepts the TCP connection and never answers PostgreSQL's startup.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const { port } = silent.address() as { port: number };
    const url = new URL(TEST_DATABASE_URL!);
    url.host = `127.0.0.1:${port}`;
    // lfk's pool as openDatabase makes it (which would first wait on migrations here).
    const pool = new pg.Pool({ connectionString: url.toString(), connectionTimeoutMillis: 200 });
    tagFailures(pool);
    cleanups.push(() => pool.end());
    const failed = await pool.query('select 1').then(
      () => null,
      (error: unknown) => error,
    );
    expect(String(failed)).toMatch(/Connection terminated due to connection timeout/);
    expect(databaseFailureOf(failed)).toBe('unreachable');
  });
});
