/**
 * The embedded database's own thread: PGlite (PostgreSQL in WebAssembly) and the reading of its
 * answers run here, off the thread that serves HTTP, which asks by message (thread.ts).
 *
 * Order: PGlite hands a notification to its listener in a microtask queued while it reads the
 * answer of the statement whose commit sent it, so the notification is posted before that answer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { createPostgreSqlTypeParsers } from '@mikro-orm/sql';
import array from 'postgres-array';

export interface WorkerOptions {
  dataDir: string;
  startParams: string[];
  loadDataDir?: ArrayBuffer;
  loadDataDirType?: string;
}

export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; channel: string }
  | { id: number; op: 'dump'; compression: 'none' | 'gzip' | 'auto' }
  | { id: number; op: 'close' };

export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: Record<string, unknown> }
  | { notification: { channel: string; payload: string } };

interface OpenTransaction {
  tx: Transaction;
  end: (commit: boolean) => void;
  done: Promise<unknown>;
}

const port = parentPort!;
const options = workerData as WorkerOptions;

/** An error as data: its message and PostgreSQL's fields (code, detail, constraint…) survive the copy. */
function errorOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = Object.fromEntries(Object.entries(error).filter(([, value]) => value === null || typeof value !== 'object'));
  return { ...fields, message: error.message, name: error.name };
}

let pglite: PGlite;
try {
  pglite = await PGlite.create({
    dataDir: options.dataDir,
    startParams: options.startParams,
    ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir], { type: options.loadDataDirType }) } : {}),
    // MikroORM's, as its PGlite driver gives an instance it makes itself (dates stay text).
    parsers: createPostgreSqlTypeParsers((text) => array.parse(text)),
  });
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: errorOf(error) } satisfies Reply);
  process.exit(1);
}

const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;
const unlistens = new Map<string, () => Promise<void>>();

/** A transaction held open until the main thread ends it: PGlite's lock keeps other statements out meanwhile. */
async function begin(): Promise<number> {
  const id = nextTransaction++;
  let began!: () => void;
  const started = new Promise<void>((resolve) => (began = resolve));
  let end!: (commit: boolean) => void;
  const ended = new Promise<boolean>((resolve) => (end = resolve));
  const done = pglite.transaction(async (tx) => {
    transactions.set(id, { tx, end, done });
    began();
    if (!(await ended)) await tx.rollback();
  });
  done.catch(() => {});
  await Promise.race([started, done]);
  return id;
}

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const on = request.tx === undefined ? pglite : transactions.get(request.tx)?.tx;
      if (!on) throw new Error('the transaction has ended');
      // A statement with its values written in (as MikroORM writes them) takes the simple protocol:
      // one message to PostgreSQL instead of parse, bind, describe and execute.
      if (request.params.length === 0) {
        const last = (await on.exec(request.sql)).at(-1)!;
        return { rows: last.rows, affectedRows: last.affectedRows, fields: last.fields };
      }
      const { rows, affectedRows, fields } = await on.query(request.sql, request.params, { rowMode: 'object' });
      return { rows, affectedRows, fields };
    }
    case 'begin':
      return begin();
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) return null;
      transactions.delete(request.tx);
      open.end(request.commit);
      await open.done;
      return null;
    }
    case 'listen': {
      const unlisten = await pglite.listen(request.channel, (payload) =>
        port.postMessage({ notification: { channel: request.channel, payload } } satisfies Reply),
      );
      unlistens.set(request.channel, unlisten);
      return null;
    }
    case 'unlisten': {
      await unlistens.get(request.channel)?.();
      unlistens.delete(request.channel);
      return null;
    }
    case 'dump': {
      const blob = (await pglite.dumpDataDir(request.compression)) as Blob;
      return { bytes: await blob.arrayBuffer(), type: blob.type };
    }
    case 'close':
      await pglite.close();
      return null;
  }
}

port.on('message', (request: Request) => {
  handle(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies Reply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: errorOf(error) } satisfies Reply),
  );
});
port.postMessage({ id: 0, ok: true, value: null } satisfies Reply);
