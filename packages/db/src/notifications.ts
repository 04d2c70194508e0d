import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** What listening needs of PGlite, in this thread or in one of its own (pglite-thread/thread.ts). */
type Listens = Pick<PGlite, 'listen'>;

/** What a listener tells its owner. Between `onLost` and the next `onListening`, notifications may be missed. */
export interface NotificationHandlers {
  onNotification(payload: string): void;
  /** Listening, for the first time or again after a loss. */
  onListening(): void;
  onLost(error: Error | undefined): void;
}

/** A silent connection (a half-open socket) is caught by a trivial query this often… */
const HEARTBEAT_MS = 2000;
/** …that must answer within this time. */
const HEARTBEAT_TIMEOUT_MS = 1000;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 2000;

export interface Subscription {
  close(): Promise<void>;
}

/** A channel's name goes into `LISTEN` as written: only a plain identifier is taken. */
function assertPlainChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
}

/**
 * `LISTEN` on one channel over a dedicated connection (a pooled one would be handed to other
 * queries), reconnecting with backoff for as long as it is open.
 */
export class ChannelListener implements Subscription {
  readonly #url: string;
  readonly #channel: string;
  readonly #handlers: NotificationHandlers;
  #client: pg.Client | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #reconnect: NodeJS.Timeout | undefined;
  #delayMs = RECONNECT_MIN_MS;
  #closed = false;

  constructor(url: string, channel: string, handlers: NotificationHandlers) {
    assertPlainChannel(channel);
    this.#url = url;
    this.#channel = channel;
    this.#handlers = handlers;
  }

  start(): this {
    void this.#connect();
    return this;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnect);
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.#url,
      application_name: 'lfk-listener',
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
    });
    this.#client = client;
    client.on('notification', (message) => {
      if (message.channel === this.#channel) this.#handlers.onNotification(message.payload ?? '');
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, undefined));
    try {
      await client.connect();
      await client.query(`listen ${this.#channel}`);
    } catch (error) {
      this.#lost(client, error as Error);
      return;
    }
    if (this.#client !== client) return;
    this.#delayMs = RECONNECT_MIN_MS;
    this.#heartbeat = setInterval(() => {
      client.query('select 1').catch((error: Error) => this.#lost(client, error));
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
    this.#handlers.onListening();
  }

  #lost(client: pg.Client, error: Error | undefined): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    clearInterval(this.#heartbeat);
    client.removeAllListeners('notification');
    // A late error from the dead client must not crash the process.
    client.on('error', () => {});
    client.end().catch(() => {});
    if (this.#closed) return;
    this.#handlers.onLost(error);
    this.#reconnect = setTimeout(() => void this.#connect(), this.#delayMs);
    this.#reconnect.unref();
    this.#delayMs = Math.min(this.#delayMs * 2, RECONNECT_MAX_MS);
  }
}

/**
 * `LISTEN` on PGlite, which runs in this process (in a thread of its own): a notification comes
 * back with the answer to the statement whose commit sent it, and PGlite hands it to the handler
 * (a microtask queued while that answer is read, posted from the thread before the answer) before
 * the statement's promise resolves. So the handler has run by the time the change that caused it is
 * seen to have committed, and there is no connection to lose.
 */
export class PgliteChannelListener implements Subscription {
  readonly #pglite: Promise<Listens>;
  readonly #channel: string;
  readonly #handlers: NotificationHandlers;
  #listening: Promise<(() => Promise<void>) | null> | undefined;

  constructor(pglite: Listens | Promise<Listens>, channel: string, handlers: NotificationHandlers) {
    assertPlainChannel(channel);
    this.#pglite = Promise.resolve(pglite);
    this.#channel = channel;
    this.#handlers = handlers;
  }

  start(): this {
    this.#listening = this.#pglite
      .then(async (pglite) => {
        const unlisten = await pglite.listen(this.#channel, (payload) => this.#handlers.onNotification(payload));
        this.#handlers.onListening();
        return unlisten;
      })
      .catch((error: Error) => {
        this.#handlers.onLost(error);
        return null;
      });
    return this;
  }

  async close(): Promise<void> {
    const unlisten = await this.#listening;
    // A database already closed listens to nothing any more.
    await unlisten?.().catch(() => {});
  }
}
