import { type AddressInfo, connect as dial, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP hop in front of a server (PostgreSQL, or lfk itself), which a test can break the ways a
 * server goes away: `down()` drops every connection and refuses new ones (stopped, restarting, its
 * process killed); `hang()` keeps every connection open but carries nothing, old or new (a process
 * stopped with SIGSTOP, a network partition); `up()` forwards again; `cutWhenReused()` drops each
 * open connection as soon as the client sends on it again (a kept-alive socket the server closed
 * while it sat idle, found dead by the next request written to it).
 */
export interface TcpHop {
  /** The target's URL with its host and port replaced by the hop's. */
  url: string;
  down(): Promise<void>;
  hang(): Promise<void>;
  up(): Promise<void>;
  cutWhenReused(): void;
  close(): Promise<void>;
}

type State = 'up' | 'hung' | 'down';

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'http:': 80 };

export async function startTcpHop(targetUrl: string): Promise<TcpHop> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || DEFAULT_PORTS[target.protocol]);
  let state: State = 'up';
  type Pair = { client: Socket; upstream: Socket | null; cutWhenReused?: boolean };
  const pairs = new Set<Pair>();
  let listener: Server | null = null;

  const accept = (client: Socket) => {
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    client.on('error', () => {});
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (state === 'hung') return void client.pause();
    const upstream = dial(targetPort, target.hostname);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    // Before the pipe's own listener, so the chunk that finds a cut connection is never forwarded.
    client.on('data', () => {
      if (!pair.cutWhenReused) return;
      upstream.destroy();
      client.destroy();
    });
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const listen = async (port: number) => {
    listener = createServer(accept);
    await new Promise<void>((resolve, reject) => {
      listener!.once('error', reject);
      listener!.listen(port, '127.0.0.1', () => resolve());
    });
    return (listener.address() as AddressInfo).port;
  };
  const stopListening = () =>
    new Promise<void>((resolve) => {
      const closing = listener;
      listener = null;
      if (!closing) return resolve();
      closing.close(() => resolve());
    });

  const dropAll = () => {
    for (const { client, upstream } of pairs) {
      upstream?.destroy();
      client.destroy();
    }
  };

  const port = await listen(0);
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);

  return {
    url: url.toString(),
    async down() {
      state = 'down';
      dropAll();
      await stopListening();
    },
    async hang() {
      state = 'hung';
      if (!listener) await listen(port);
      for (const { client, upstream } of pairs) {
        client.unpipe();
        upstream?.unpipe();
        client.pause();
        upstream?.pause();
      }
    },
    async up() {
      if (!listener) await listen(port);
      state = 'up';
      // Connections held while hung are dropped, as a partition that heals leaves them half-read.
      dropAll();
    },
    cutWhenReused() {
      for (const pair of pairs) pair.cutWhenReused = true;
    },
    async close() {
      state = 'down';
      dropAll();
      await stopListening();
    },
  };
}
