import { createHash } from 'node:crypto';
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { RATE_LIMITS_OFF } from '@lfk/server';
import type { FromServer, ToServer } from './protocol.ts';

export const REPO = join(import.meta.dirname, '../..');

/** The Node flags `npm start` gives a server on a database of this kind (apps/server/bin/start.sh). */
const nodeFlags = (engine: 'embedded' | 'postgres') =>
  readFileSync(join(REPO, `apps/server/${engine}.node-flags`), 'utf8')
    .trim()
    .split(/\s+/);
const EMBEDDED_NODE_FLAGS = nodeFlags('embedded');
const POSTGRES_NODE_FLAGS = nodeFlags('postgres');

/** Exports scenario 13 leaves stalled at once. */
export const STALLED_READERS = 10;

/**
 * One secret key for every replica a benchmark starts on one PostgreSQL database, the same in every
 * run: runs on one database share its webhook queue, and a server of one run that takes another's
 * delivery must open its endpoint's secret (with a key of each run's own, it could not, and the
 * delivery failed: scenario 20 counted 485 such attempts while another run shared lfk_bench).
 * A benchmark's database holds nothing secret.
 */
const BENCH_SECRET_KEY = createHash('sha256').update('lfk bench secret key').digest('hex');

/** The server's environment: the defaults, on 127.0.0.1, logging warnings and worse. */
export function serverEnv(database: { dataDir: string } | { databaseUrl: string }): Record<string, string> {
  return {
    LFK_SECRET_KEY: BENCH_SECRET_KEY,
    // The webhook scenarios' receiver listens on 127.0.0.1.
    LFK_WEBHOOK_ALLOW_PRIVATE: 'true',
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...RATE_LIMITS_OFF,
    // Scenario 13 stalls ten exports of one person, to measure what they cost: the limit (2 by
    // default) is what keeps one person to two; ten people would cost the same.
    LFK_EXPORTS_PER_PERSON: String(STALLED_READERS),
    ...('databaseUrl' in database ? { DATABASE_URL: database.databaseUrl } : { LFK_DATA_DIR: database.dataDir }),
  };
}

export interface BenchServer {
  url: string;
  pid: number;
  send(message: ToServer): void;
  /** Statements the server has sent to its database so far. */
  queries(): Promise<number>;
  /** Marks a form's notification address verified (the bench server only). */
  verifyNotify(formId: string): Promise<void>;
  /** Marks an account's address confirmed (the bench server only). */
  confirmAccount(email: string): Promise<void>;
  /** Writes `count` submissions to the form, each message `messageBytes` long if given (the bench server only). */
  seedSubmissions(formId: string, count: number, messageBytes?: number): Promise<void>;
  /** The server's heap after a full collection: what it holds live (the bench server only). */
  liveHeapBytes(): Promise<number>;
  /** The same, with the handles and requests Node keeps open: sockets, timers (the bench server only). */
  heap(): Promise<{ live: number; resources: number }>;
  /** A memory-reducing collection in the server, which gives freed heap pages back (the bench server only). */
  collect(): Promise<void>;
  /** Refused keys counted and asked of the database every time (`on`), or as the benchmark runs otherwise (the bench server only). */
  refusalsAsked(on: boolean): Promise<void>;
  /** Profiles the server's CPU while `body` runs, into `path` (the bench server only). */
  profile<T>(path: string, body: () => Promise<T>): Promise<T>;
  rssBytes(): number;
  /** The most RSS the process has had (the kernel's high-water mark). */
  peakRssBytes(): number;
  /** Starts the high-water mark again from the RSS of now (Linux: `5` into /proc/<pid>/clear_refs). */
  resetPeakRss(): void;
  /** CPU time the server has used so far, user and system, in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * The server under test (bench-server.ts) in a process of its own, with the Node flags `npm start`
 * gives it on its database.
 */
export async function startBenchServer(env: Record<string, string>, execArgv: string[] = []): Promise<BenchServer> {
  // Both flag sets have --expose-gc, which also lets scenario 13 ask for the live heap (a collection, then its size).
  const flags = env.DATABASE_URL ? POSTGRES_NODE_FLAGS : EMBEDDED_NODE_FLAGS;
  return forkServer(join(import.meta.dirname, 'bench-server.ts'), env, [...flags, ...execArgv]);
}

/**
 * The hand-written lower bound (lower-bound/server.ts) on lfk's PostgreSQL database; with
 * `filesDir`, its upload route too (scenario 20), run with the Node flags lfk on PostgreSQL runs
 * with: streaming uploads, the bound spent about 30 % more CPU per upload without them.
 */
export async function startLowerBound(databaseUrl: string, filesDir?: string): Promise<BenchServer> {
  return forkServer(
    join(import.meta.dirname, 'lower-bound/server.ts'),
    { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, ...(filesDir ? { LOWER_BOUND_FILES_DIR: filesDir } : {}) },
    filesDir ? POSTGRES_NODE_FLAGS : [],
  );
}

/**
 * Scenario 17's hand-written upload baseline (upload-baseline/server.ts): files into `root`, or
 * through a spool in `root` into the bucket of `s3` (held in memory instead with `inMemory`); with
 * `raw`, scenario 20's raw ceiling (each request's body into a file of `root`, fsynced).
 */
export async function startUploadBaseline(
  root: string,
  maxFileSize: number,
  s3?: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; inMemory?: boolean },
  raw = false,
): Promise<BenchServer> {
  return forkServer(
    join(import.meta.dirname, 'upload-baseline/server.ts'),
    {
      PATH: process.env.PATH ?? '',
      UPLOAD_BASELINE_ROOT: root,
      UPLOAD_BASELINE_MAX_FILE_SIZE: String(maxFileSize),
      ...(raw ? { UPLOAD_BASELINE_RAW: 'true' } : {}),
      ...(s3
        ? {
            UPLOAD_BASELINE_S3_ENDPOINT: s3.endpoint,
            UPLOAD_BASELINE_S3_BUCKET: s3.bucket,
            UPLOAD_BASELINE_S3_ACCESS_KEY_ID: s3.accessKeyId,
            UPLOAD_BASELINE_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
            UPLOAD_BASELINE_S3_MEMORY: String(s3.inMemory ?? false),
          }
        : {}),
    },
    // The raw ceiling with the flags scenario 20's other servers have (they include --expose-gc).
    raw ? POSTGRES_NODE_FLAGS : ['--expose-gc'],
  );
}

async function forkServer(script: string, env: Record<string, string>, execArgv: string[] = []): Promise<BenchServer> {
  const child = fork(script, {
    env: { ...env, PORT: '0' },
    execArgv: [...process.execArgv, ...execArgv],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the benchmark server exited with ${code}`)));
    child.on('message', (message: FromServer) => {
      if (message.type === 'ready') resolve(message.url);
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    pid: child.pid!,
    send: (message) => child.send(message),
    queries: () => ask(child, { type: 'queries' }, 'queries').then((answer) => answer.count),
    verifyNotify: (formId) => ask(child, { type: 'verify-notify', formId }, 'verified').then(() => undefined),
    confirmAccount: (email) => ask(child, { type: 'confirm-account', email }, 'verified').then(() => undefined),
    seedSubmissions: (formId, count, messageBytes) =>
      ask(child, { type: 'seed-submissions', formId, count, ...(messageBytes ? { messageBytes } : {}) }, 'seeded').then(() => undefined),
    liveHeapBytes: () => ask(child, { type: 'heap' }, 'heap').then((answer) => answer.bytes),
    heap: () => ask(child, { type: 'heap' }, 'heap').then(({ bytes, resources }) => ({ live: bytes, resources })),
    collect: () => ask(child, { type: 'collect' }, 'collected').then(() => undefined),
    refusalsAsked: (on) => ask(child, { type: 'refusals-asked', on }, 'refusals-asked').then(() => undefined),
    async profile(path, body) {
      await ask(child, { type: 'profile-start' }, 'profiling');
      try {
        return await body();
      } finally {
        await ask(child, { type: 'profile-stop', path }, 'profiled');
      }
    },
    rssBytes: () => statusBytes(child.pid!, 'VmRSS'),
    peakRssBytes: () => statusBytes(child.pid!, 'VmHWM'),
    resetPeakRss: () => writeFileSync(`/proc/${child.pid!}/clear_refs`, '5'),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    stop: () => stopProcess(child),
  };
}

function ask<T extends FromServer['type']>(child: ChildProcess, question: ToServer, answerType: T): Promise<Extract<FromServer, { type: T }>> {
  return new Promise((resolve) => {
    const answer = (message: FromServer) => {
      if (message.type !== answerType) return;
      child.off('message', answer);
      resolve(message as Extract<FromServer, { type: T }>);
    };
    child.on('message', answer);
    child.send(question);
  });
}

/** A memory figure of /proc/<pid>/status, the kernel's own accounting. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!kib) throw new Error(`no ${field} for process ${pid}`);
  return Number(kib[1]) * 1024;
}

/** utime + stime from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds so far of each PostgreSQL process on this machine, by pid. */
function postgresCpuByPid(): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') seconds.set(Number(entry), cpuSecondsOf(Number(entry)));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return seconds;
}

/**
 * Starts a clock of the CPU time PostgreSQL spends (backends, WAL writer, checkpointer,
 * autovacuum): what a load cost the database, when nothing else uses it. Reading it gives the
 * seconds since it started; a process that exited in between counts for nothing (its time went
 * with it, and the servers' pools keep theirs open under load).
 */
export function postgresCpuClock(): () => number {
  const start = postgresCpuByPid();
  return () => {
    let seconds = 0;
    for (const [pid, now] of postgresCpuByPid()) seconds += now - (start.get(pid) ?? 0);
    return seconds;
  };
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `npm start`'s own command (after the dashboard build), in a process of its own (start.sh execs
 * Node, so the child's pid is the server's). Its output is dropped, or written to the file
 * descriptor `output`.
 */
export function spawnMainServer(env: Record<string, string>, output: 'ignore' | number = 'ignore'): ChildProcess {
  return spawn('sh', [join(REPO, 'apps/server/bin/start.sh')], {
    env: { ...env, PATH: `${dirname(process.execPath)}:${env.PATH ?? ''}` },
    stdio: ['ignore', output, output],
  });
}

/** Runs a command to its end; resolves with its exit code and output. */
export function run(args: string[], env: Record<string, string>, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}
