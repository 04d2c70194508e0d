/**
 * A pooled connection that dies at a transaction's BEGIN or COMMIT goes back to the pool. Before
 * kysely 0.29.7 a failed BEGIN or COMMIT kept its connection checked out for good: each failure
 * took one connection from the pool, and closing the database waited for it for ever (a server
 * that lost its database for a moment hung at shutdown, and after ten such losses at every request).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/index.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/**
 * A TCP proxy in front of PostgreSQL that can hold back the database's replies and then cut every
 * connection, so a statement fails after it was sent, deterministically.
 */
class CuttableProxy {
  readonly #server: Server;
  readonly #pairs = new Set<{ client: Socket; upstream: Socket }>();
  #holding = false;
  #sentWhileHolding: (() => void) | undefined;

  private constructor(target: URL) {
    this.#server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      const pair = { client, upstream };
      this.#pairs.add(pair);
      client.on('data', (chunk) => {
        upstream.write(chunk);
        if (this.#holding) this.#sentWhileHolding?.();
      });
      upstream.on('data', (chunk) => {
        if (!this.#holding) client.write(chunk);
      });
      const drop = () => {
        this.#pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('close', drop).on('error', drop);
      upstream.on('close', drop).on('error', drop);
    });
  }

  static async start(target: URL): Promise<{ proxy: CuttableProxy; url: string }> {
    const proxy = new CuttableProxy(target);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    const port = (proxy.#server.address() as { port: number }).port;
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return { proxy, url: url.toString() };
  }

  /** From now on the database's replies are dropped; resolves once the client has sent something. */
  holdReplies(): Promise<void> {
    this.#holding = true;
    return new Promise((resolve) => {
      this.#sentWhileHolding = resolve;
    });
  }

  /** Cuts every connection (the client sees its socket close mid-statement) and lets new ones through. */
  cutAll(): void {
    for (const { client, upstream } of this.#pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.#pairs.clear();
    this.#holding = false;
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

describe.runIf(TEST_DATABASE_URL)('a connection lost in a transaction (PostgreSQL)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  // Where the connection dies: at BEGIN, or at COMMIT after the transaction's work was answered.
  for (const moment of ['begin', 'commit'] as const) {
    it(`at ${moment.toUpperCase()} is given back to the pool: the next statement runs and the database closes`, async () => {
      const { proxy, url } = await CuttableProxy.start(new URL(TEST_DATABASE_URL!));
      cleanups.push(() => proxy.close());
      // One connection: a connection kept checked out would leave none for the next statement.
      const db = await openDatabase({ databaseUrl: url, poolMax: 1 });
      expect(await db.isReady()).toBe(true);

      let sent = moment === 'begin' ? proxy.holdReplies() : undefined;
      const transaction = db.fork().transactional(async (em) => {
        await em.execute('select 1');
        sent = proxy.holdReplies();
      });
      while (!sent) await new Promise((resolve) => setImmediate(resolve));
      await sent;
      proxy.cutAll();
      await expect(transaction).rejects.toThrow(/Connection terminated/);

      expect(await db.fork().execute<{ answer: number }[]>('select 42 as answer')).toEqual([{ answer: 42 }]);
      await db.close();
      expect(await db.orm.isConnected()).toBe(false);
    });
  }
});
