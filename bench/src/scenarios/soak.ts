import { type ChildProcess, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createLfkClient } from '@lfk/client';
import { type S3Server, s3Env, startS3Server } from '@lfk/testing';
import pg from 'pg';
import { median, percentile } from '../load.ts';
import { freePort, REPO, run, serverEnv, spawnMainServer, stopProcess } from '../processes.ts';
import type { Row } from '../report.ts';
import { PASSWORD } from '../seed.ts';
import { eventIdOf, type Receiver, startReceiver } from './webhooks.ts';

const MIB = 2 ** 20;
const execFileAsync = promisify(execFile);

/** Half the requests are submissions (the others read a form); one submission in this many is multipart with a file. */
const WITH_FILE_EVERY = 5;
/** The file a multipart submission carries: small, random (incompressible, sniffed as nothing known). */
const FILE_BYTES = 8 * 1024;
const FORMS = 4;
/** A request not answered in this long counts as failed. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How long a replica's load runs before its RSS baseline is taken: at most 30 s, a tenth of a shorter run. */
const warmUpSeconds = (seconds: number) => Math.min(30, Math.max(5, Math.round(seconds / 10)));
/** RSS at a point is the median of the 1-s samples over this many seconds (the young generation makes it jump between samples). */
const SETTLE_S = 5;
/** Targets: RSS at the end ÷ after the warm-up, and the least-squares slope over the second half of the measured window. */
const GROWTH_TARGET = 1.2;
const SLOPE_TARGET_MIB_PER_MIN = 2;
/** Time after the load for every acknowledged submission's event to arrive (a killed replica's held deliveries wait out their 60 s lock). */
const DELIVERY_GRACE_MS = 90_000;

/** One process of a replica: its RSS every second from its start, and (with BENCH_SOAK_METRICS) its heap every 5 s. */
interface Life {
  label: string;
  url: string;
  child: ChildProcess;
  pid: number;
  /** Seconds into the run when it answered /readyz, and when it was killed or stopped. */
  readyAt: number;
  endedAt: number | null;
  inRotation: boolean;
  agent: Agent;
  rss: { at: number; bytes: number }[];
  heap: { at: number; used: number; total: number; external: number; rss: number }[];
}

interface Outcome {
  /** Seconds into the run when it was due, and when it was answered or failed. */
  at: number;
  done: number;
  life: string;
  kind: 'read' | 'json' | 'file';
  ok: boolean;
  ms: number;
  why?: string;
}

function rssOf(pid: number): number | null {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kib ? Number(kib[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The least-squares slope of `points` (seconds, bytes), in MiB a minute. */
export function slopeMiBPerMinute(points: { at: number; bytes: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const meanX = points.reduce((s, p) => s + p.at, 0) / n;
  const meanY = points.reduce((s, p) => s + p.bytes, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.at - meanX) * (p.bytes - meanY);
    den += (p.at - meanX) ** 2;
  }
  return ((num / den) * 60) / MIB;
}

/** The local ports of the TCP connections `pids` hold to `port` (from /proc: each process's socket inodes, then /proc/net/tcp and tcp6). */
function localPortsTo(port: number, pids: number[]): Set<number> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
          if (socket) inodes.add(socket[1]!);
        } catch {
          // Closed meanwhile.
        }
      }
    } catch {
      // Gone.
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, remote, inode] = [fields[1], fields[2], fields[9]];
      if (!local || !remote || !inode) continue;
      if (Number.parseInt(remote.split(':')[1]!, 16) === port && inodes.has(inode)) ports.add(Number.parseInt(local.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** The PostgreSQL cluster (`pg_lsclusters`) listening on the port of a local `databaseUrl`, or why none can be restarted from here. */
async function localCluster(databaseUrl: string): Promise<{ version: string; name: string } | { cannot: string }> {
  const url = new URL(databaseUrl);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(url.hostname)) return { cannot: `the database is not on this machine (${url.hostname})` };
  if (process.getuid?.() !== 0) return { cannot: 'the benchmark does not run as root, which pg_ctlcluster needs' };
  let listing: string;
  try {
    listing = (await execFileAsync('pg_lsclusters', ['--no-header'])).stdout;
  } catch {
    return { cannot: 'pg_lsclusters is not installed (no Debian-packaged PostgreSQL to restart)' };
  }
  const port = url.port || '5432';
  for (const line of listing.split('\n')) {
    const [version, name, clusterPort] = line.trim().split(/\s+/);
    if (version && name && clusterPort === port) return { version, name };
  }
  return { cannot: `no cluster of pg_lsclusters listens on port ${port}` };
}

/** One statement on a connection of its own. */
async function sql<T extends pg.QueryResultRow>(databaseUrl: string, statement: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(statement, params)).rows;
  } finally {
    await client.end();
  }
}

/** A multipart body: a text field and one small file. */
function multipart(message: string): { body: Buffer; contentType: string } {
  const boundary = `----lfk-soak-${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\n${message}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="note.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    randomBytes(FILE_BYTES),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** One request; resolves with its status and body (or rejects on a network error or the timeout). */
function send(
  agent: Agent,
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body?: Buffer | string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
      res.on('error', reject);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end(body);
  });
}

export interface SoakSettings {
  rate: number;
  seconds: number;
  /** BENCH_SOAK_METRICS: serve /metrics on each replica and read its heap every 5 s (not as `npm start` runs; for finding a growth). */
  metrics: boolean;
  /** BENCH_SOAK_NODE_OPTIONS: NODE_OPTIONS for the replicas (say, --heapsnapshot-signal=SIGUSR2). */
  nodeOptions?: string;
}

/**
 * Scenario 21: issue 52's soak. Two replicas started as `npm start` starts them on PostgreSQL
 * (apps/server/bin/start.sh, with postgres.node-flags), on one database, files on an s3rver, every
 * form with a webhook to a receiver on 127.0.0.1. An open-loop load of `rate` requests a second,
 * alternating between the replicas in rotation, for `seconds`: half read a form with a key, half
 * are keyed submissions, every fifth of those multipart with an 8 KiB file. At a third of the run
 * replica B is killed (SIGKILL), taken out of the rotation and started again; at half,
 * PostgreSQL itself is restarted (`pg_ctlcluster … restart`, when this process may). Each
 * process's RSS every second (/proc/PID/status): from its own start plus a warm-up to the end of
 * the load, the growth and the slope over the second half.
 */
export async function soak(databaseUrl: string, settings: SoakSettings, notes: string[], say: (line: string) => void): Promise<Row[]> {
  const { rate, seconds } = settings;
  const warmUp = warmUpSeconds(seconds);
  const loadAtStart = loadavg();
  const scratch = mkdtempSync(join(tmpdir(), 'lfk-bench-soak-'));
  const logPath = join(scratch, 'replicas.log');
  const log = openSync(logPath, 'a');
  let s3: S3Server | null = null;
  let receiver: Receiver | null = null;
  const lives: Life[] = [];
  const cluster = await localCluster(databaseUrl);
  let sampler: NodeJS.Timeout | undefined;
  let heapSampler: NodeJS.Timeout | undefined;
  let succeeded = false;
  let keepLog = false;
  try {
    // npm start builds the dashboard first when its sources changed; the replicas then serve it as npm start's would.
    const built = await run([join(REPO, 'apps/web/scripts/build-if-changed.ts')], { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });
    if (built.code !== 0) throw new Error(`the dashboard build failed: ${built.stderr}`);
    s3 = await startS3Server();
    receiver = await startReceiver();
    const env = {
      ...serverEnv({ databaseUrl }),
      ...s3Env(s3),
      ...(settings.metrics ? { LFK_METRICS: 'true' } : {}),
      ...(settings.nodeOptions ? { NODE_OPTIONS: settings.nodeOptions } : {}),
      HOME: process.env.HOME ?? '',
    };
    const ports = { A: await freePort(), B: await freePort() };
    let runStarted = performance.now();
    const now = () => (performance.now() - runStarted) / 1000;

    const start = async (name: 'A' | 'B', label: string): Promise<Life> => {
      const url = `http://127.0.0.1:${ports[name]}`;
      const child = spawnMainServer({ ...env, PORT: String(ports[name]) }, log);
      const exited = new Promise<never>((_, reject) =>
        child.once('exit', (code, signal) => reject(new Error(`replica ${name} exited (${code ?? signal}); see ${logPath}`))),
      );
      exited.catch(() => {});
      const deadline = performance.now() + 60_000;
      const ready = (async () => {
        for (;;) {
          try {
            if ((await fetch(`${url}/readyz`)).status === 200) return;
          } catch {
            // Not listening yet.
          }
          if (performance.now() > deadline) throw new Error(`replica ${name} was not ready in 60 s; see ${logPath}`);
          await sleep(20);
        }
      })();
      await Promise.race([ready, exited]);
      const life: Life = {
        label,
        url,
        child,
        pid: child.pid!,
        readyAt: now(),
        endedAt: null,
        inRotation: true,
        agent: new Agent({ keepAlive: true, maxSockets: 256 }),
        rss: [],
        heap: [],
      };
      lives.push(life);
      return life;
    };

    say('soak: starting two replicas');
    const a = await start('A', 'A');
    await start('B', 'B, before the kill');

    // A workspace whose address is confirmed (keys and webhooks need it), two keys, four forms each with one endpoint.
    const email = `soak-${randomBytes(6).toString('hex')}@example.com`;
    const signedUp = await createLfkClient({ baseUrl: a.url }).auth.signup.mutate({ email, password: PASSWORD });
    await sql(databaseUrl, 'update users set email_verified_at = now() where email = $1', [email]);
    const owner = createLfkClient({ baseUrl: a.url, sessionToken: signedUp.session_token });
    const keys: string[] = [];
    for (let k = 0; k < 2; k++) keys.push((await owner.apiKeys.create.mutate({ workspace_id: signedUp.workspace.id, name: `soak ${k}` })).key);
    const withKey = createLfkClient({ baseUrl: a.url, apiKey: keys[0]! });
    const forms: string[] = [];
    for (let f = 0; f < FORMS; f++) {
      const form = await withKey.forms.create.mutate({
        name: `Soak ${f}`,
        schema: [
          { name: 'message', type: 'text', required: true },
          { name: 'document', type: 'file' },
        ],
        submission_mode: 'api_key',
      });
      await withKey.webhooks.create.mutate({ form_id: form.id, url: receiver.url });
      forms.push(form.id);
    }

    // Every second, each running process's RSS; with metrics, its heap every 5 s.
    runStarted = performance.now();
    for (const life of lives) life.readyAt = 0;
    const sample = () => {
      for (const life of lives) {
        if (life.endedAt !== null) continue;
        const bytes = rssOf(life.pid);
        if (bytes !== null) life.rss.push({ at: now(), bytes });
      }
    };
    sample();
    sampler = setInterval(sample, 1000);
    if (settings.metrics) {
      const metricOf = (text: string, name: string) => Number(new RegExp(`^lfk_${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
      heapSampler = setInterval(() => {
        for (const life of lives) {
          if (life.endedAt !== null) continue;
          const at = now();
          fetch(`${life.url}/metrics`)
            .then((r) => r.text())
            .then((text) => {
              life.heap.push({
                at,
                used: metricOf(text, 'nodejs_heap_size_used_bytes'),
                total: metricOf(text, 'nodejs_heap_size_total_bytes'),
                external: metricOf(text, 'nodejs_external_memory_bytes'),
                rss: metricOf(text, 'process_resident_memory_bytes'),
              });
            })
            .catch(() => {});
        }
      }, 5000);
    }

    const outcomes: Outcome[] = [];
    const acknowledged = new Set<string>();
    const events: { kill?: { at: number; back?: number }; restart?: { at: number; ms?: number; error?: string; otherConnections?: number } } = {};

    const killAndRestart = async () => {
      const b = lives.find((l) => l.label.startsWith('B') && l.endedAt === null)!;
      b.inRotation = false;
      const gone = new Promise((resolve) => b.child.once('exit', resolve));
      process.kill(b.pid, 'SIGKILL');
      b.endedAt = now();
      events.kill = { at: b.endedAt };
      await gone;
      b.agent.destroy();
      say(`soak: replica B killed at ${b.endedAt.toFixed(0)} s, starting it again`);
      const again = await start('B', 'B, restarted');
      events.kill.back = again.readyAt;
    };
    const restartDatabase = async () => {
      events.restart = { at: now() };
      if ('cannot' in cluster) return;
      try {
        // Connections to the cluster not of the replicas (nor this one): another run's, another engineer's, which the restart cuts too.
        const ours = localPortsTo(
          Number(new URL(databaseUrl).port || 5432),
          lives.filter((l) => l.endedAt === null).map((l) => l.pid),
        );
        const clients = await sql<{ port: number | null }>(
          databaseUrl,
          "select client_port as port from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()",
        );
        events.restart.otherConnections = clients.filter((c) => c.port === null || !ours.has(c.port)).length;
        const began = performance.now();
        await execFileAsync('pg_ctlcluster', [cluster.version, cluster.name, 'restart']);
        events.restart.ms = performance.now() - began;
        say(`soak: PostgreSQL restarted in ${events.restart.ms.toFixed(0)} ms`);
      } catch (error) {
        events.restart.error = (error as Error).message.split('\n')[0]!;
      }
    };

    say(`soak: ${rate} requests/s for ${seconds} s; kill -9 of B at ${(seconds / 3).toFixed(0)} s, PostgreSQL restarted at ${(seconds / 2).toFixed(0)} s`);
    const pending = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      pending.add(p);
      void p.finally(() => pending.delete(p));
    };
    const sideJobs: Promise<void>[] = [];
    const total = rate * seconds;
    let submissions = 0;
    for (let i = 0; i < total; i++) {
      const due = runStarted + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const at = (due - runStarted) / 1000;
      if (!events.kill && at >= seconds / 3) sideJobs.push(killAndRestart());
      if (!events.restart && at >= seconds / 2) sideJobs.push(restartDatabase());
      // Each replica in rotation in turn; independently of it, every other pair of requests submits, and the key and form go round.
      const live = lives.filter((l) => l.inRotation);
      const life = live[i % live.length]!;
      const isSubmission = Math.floor(i / 2) % 2 === 1;
      const kind: Outcome['kind'] = !isSubmission ? 'read' : submissions++ % WITH_FILE_EVERY === 0 ? 'file' : 'json';
      const formId = forms[Math.floor(i / 4) % forms.length]!;
      const key = keys[Math.floor(i / (4 * forms.length)) % keys.length]!;
      const record = (ok: boolean, why?: string) =>
        void outcomes.push({ at, done: now(), life: life.label, kind, ok, ms: performance.now() - due, ...(why ? { why } : {}) });
      const headers: Record<string, string> = { authorization: `Bearer ${key}` };
      let answer: Promise<{ status: number; text: string }>;
      if (kind === 'read') {
        answer = send(life.agent, `${life.url}/v1/forms/${formId}`, 'GET', headers);
      } else if (kind === 'json') {
        answer = send(
          life.agent,
          `${life.url}/v1/forms/${formId}/submissions`,
          'POST',
          { ...headers, 'content-type': 'application/json' },
          `{"message":"soak ${i}"}`,
        );
      } else {
        const { body, contentType } = multipart(`soak ${i}`);
        answer = send(life.agent, `${life.url}/v1/forms/${formId}/submissions`, 'POST', { ...headers, 'content-type': contentType }, body);
      }
      track(
        answer.then(
          ({ status, text }) => {
            const expected = kind === 'read' ? 200 : 201;
            // The error's code says whose failure it was (the database's, the file store's).
            if (status !== expected) {
              const code = /"code":"([a-z_]+)"/.exec(text)?.[1];
              return record(false, code ? `${status} ${code}` : String(status));
            }
            if (kind !== 'read') {
              const id = /"id":"(sub_[^"]+)"/.exec(text)?.[1];
              if (!id) return record(false, 'no id');
              acknowledged.add(eventIdOf(id));
            }
            record(true);
          },
          (error: NodeJS.ErrnoException) => record(false, error.code ?? error.message),
        ),
      );
    }
    await Promise.all(pending);
    const loadEnd = now();
    await Promise.all(sideJobs);
    clearInterval(sampler);
    clearInterval(heapSampler);
    const loadAtEnd = loadavg();

    say('soak: waiting for the webhook events');
    const deliveredBy = performance.now() + DELIVERY_GRACE_MS;
    const lost = () => [...acknowledged].filter((id) => !receiver!.firstSeen.has(id)).length;
    while (lost() > 0 && performance.now() < deliveredBy) await sleep(500);
    const lostEvents = lost();
    const twice = [...receiver.arrivals.values()].filter((n) => n > 1).length;
    // The replicas share one LFK_SECRET_KEY: a delivery whose secret did not open was claimed by a server
    // of another run on the same database (another key), which shares the queue.
    const [foreign] = await sql<{ deliveries: string; pending: string }>(
      databaseUrl,
      `select count(*) as deliveries, count(*) filter (where d.status = 'pending') as pending
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
       where e.form_id = any($1) and d.attempts::text like '%the signing secret cannot be opened%'`,
      [forms],
    );

    // The figures.
    const killWindow = events.kill ? [events.kill.at, (events.kill.back ?? events.kill.at) + 5] : null;
    const restartWindow = events.restart && !('cannot' in cluster) ? [events.restart.at, events.restart.at + (events.restart.ms ?? 0) / 1000 + 10] : null;
    const within = (w: number[] | null, at: number) => w !== null && at >= w[0]! && at <= w[1]!;
    const failed = outcomes.filter((o) => !o.ok);
    // By when they failed: a request due just before the kill fails at it.
    const atKill = failed.filter((o) => within(killWindow, o.done));
    const atRestart = failed.filter((o) => !within(killWindow, o.done) && within(restartWindow, o.done));
    const otherwise = failed.filter((o) => !within(killWindow, o.done) && !within(restartWindow, o.done));
    const reasons = (list: Outcome[]) => {
      const counts = new Map<string, number>();
      for (const o of list) {
        const why = `${o.why ?? '?'} from ${o.life.split(',')[0]}`;
        counts.set(why, (counts.get(why) ?? 0) + 1);
      }
      return [...counts].map(([why, n]) => `${n} × ${why}`).join(', ') || 'none';
    };
    const latencies = (kind?: Outcome['kind']) =>
      outcomes
        .filter((o) => o.ok && (kind === undefined || o.kind === kind))
        .map((o) => o.ms)
        .sort((x, y) => x - y);
    const all = latencies();

    const rows: Row[] = [];
    const name = `${rate}/s for ${seconds} s`;
    rows.push({
      scenario: `21 · soak, two replicas on PostgreSQL, ${name}, files on S3, webhooks, a kill -9 and a database restart: requests`,
      engine: 'PostgreSQL',
      requestsPerSecond: outcomes.filter((o) => o.ok).length / loadEnd,
      p50Ms: percentile(all, 50),
      p99Ms: percentile(all, 99),
      errors: failed.length,
      target: 'failures only at the kill and the restart, 0 events lost',
      met: otherwise.length === 0 && lostEvents === 0,
    });
    const rssAround = (life: Life, from: number, to: number) => median(life.rss.filter((s) => s.at >= from && s.at <= to).map((s) => s.bytes));
    const measured: string[] = [];
    for (const life of lives.filter((l) => l.label !== 'B, before the kill')) {
      const warmEnd = life.readyAt + warmUp;
      const window = life.rss.filter((s) => s.at >= warmEnd && s.at <= loadEnd);
      const half = (warmEnd + loadEnd) / 2;
      const atWarm = rssAround(life, warmEnd, warmEnd + SETTLE_S);
      const atEnd = rssAround(life, loadEnd - SETTLE_S, loadEnd);
      const growth = atEnd / atWarm;
      const slope = slopeMiBPerMinute(window.filter((s) => s.at >= half));
      const peak = Math.max(...life.rss.map((s) => s.bytes));
      const who = `replica ${life.label}`;
      rows.push({
        scenario: `21 · soak: ${who}, RSS at the end ÷ after its warm-up`,
        engine: 'PostgreSQL',
        ratio: growth,
        target: `≤ ${GROWTH_TARGET.toFixed(2)}`,
        met: growth <= GROWTH_TARGET,
      });
      rows.push({
        scenario: `21 · soak: ${who}, RSS slope over the second half (MiB/min)`,
        engine: 'PostgreSQL',
        ratio: slope,
        target: `≤ ${SLOPE_TARGET_MIB_PER_MIN}`,
        met: slope <= SLOPE_TARGET_MIB_PER_MIN,
      });
      measured.push(
        `${who} (ready at ${life.readyAt.toFixed(0)} s): ${(atWarm / MIB).toFixed(0)} MiB at ${warmEnd.toFixed(0)} s (its warm-up's end), ` +
          `${(atEnd / MIB).toFixed(0)} MiB at ${loadEnd.toFixed(0)} s (×${growth.toFixed(2)}), at most ${(peak / MIB).toFixed(0)} MiB; ` +
          `${slope.toFixed(1)} MiB/min from ${half.toFixed(0)} s`,
      );
    }
    const series = (life: Life) =>
      life.rss
        .filter((s, i) => i === 0 || Math.floor(s.at / 30) !== Math.floor(life.rss[i - 1]!.at / 30))
        .map((s) => `${s.at.toFixed(0)} s ${(s.bytes / MIB).toFixed(0)}`)
        .join(', ');
    const before = lives.find((l) => l.label === 'B, before the kill')!;
    const heapWords = settings.metrics
      ? ` Heap used/total and external (MiB, from /metrics): ${lives
          .map(
            (l) =>
              `${l.label}: ${l.heap
                .filter((_, i) => i % 6 === 0)
                .map((h) => `${h.at.toFixed(0)} s ${(h.used / MIB).toFixed(0)}/${(h.total / MIB).toFixed(0)} ext ${(h.external / MIB).toFixed(0)}`)
                .join(', ')}`,
          )
          .join('; ')}.`
      : '';
    const restartWords =
      'cannot' in cluster
        ? `PostgreSQL was not restarted: ${cluster.cannot}.`
        : events.restart?.error
          ? `Restarting PostgreSQL failed: ${events.restart.error}.`
          : `PostgreSQL (cluster ${cluster.version} ${cluster.name}) was restarted at ${events.restart!.at.toFixed(0)} s and took ` +
            `${((events.restart!.ms ?? 0) / 1000).toFixed(1)} s (${events.restart!.otherConnections} connections not the replicas' were cut with it).`;
    const reads = latencies('read');
    const json = latencies('json');
    const files = latencies('file');
    const count = (kind: string) => outcomes.filter((o) => o.kind === kind).length;
    const p = (values: number[]) => `${percentile(values, 50).toFixed(1)}/${percentile(values, 99).toFixed(0)} ms`;
    notes.push(
      `Scenario 21: ${outcomes.length} requests at ${rate}/s over ${loadEnd.toFixed(0)} s, alternating between the replicas in rotation: ` +
        `${count('read')} form reads (p50/p99 ${p(reads)}), ${count('json')} JSON submissions (${p(json)}), ` +
        `${count('file')} multipart with an 8 KiB file to S3 (${p(files)}); latency from each request's due time (open loop). ` +
        `Replica B was killed (SIGKILL) at ${events.kill?.at.toFixed(0)} s and answered /readyz again at ` +
        `${events.kill?.back?.toFixed(0)} s, out of the rotation meanwhile. ${restartWords} Failed: ${atKill.length} at the kill (${reasons(atKill)}), ` +
        `${atRestart.length} at the restart (${reasons(atRestart)}), ${otherwise.length} otherwise (${reasons(otherwise)}). ` +
        `Webhook events: ${acknowledged.size - lostEvents} of ${acknowledged.size} acknowledged submissions received ` +
        `${DELIVERY_GRACE_MS / 1000} s after the load at most, ` +
        `${twice} more than once (in flight at the kill or the restart)` +
        (Number(foreign!.deliveries) > 0
          ? `; ${foreign!.deliveries} deliveries were attempted by a server of another run on this database (their secret did not open under its ` +
            `LFK_SECRET_KEY), ${foreign!.pending} of them still waiting for a retry. `
          : '. ') +
        `RSS (/proc VmRSS, each process from its own start; a point is the median of ${SETTLE_S} 1-s samples, warm-up ${warmUp} s): ` +
        `${measured.join('; ')}. ` +
        `B before the kill: ${(before.rss[0]!.bytes / MIB).toFixed(0)} → ${(before.rss.at(-1)!.bytes / MIB).toFixed(0)} MiB. ` +
        `Every 30 s (s, MiB): ${lives.map((l) => `${l.label}: ${series(l)}`).join('; ')}.${heapWords} ` +
        `1-minute load average ${loadAtStart[0]!.toFixed(2)} at the start, ${loadAtEnd[0]!.toFixed(2)} at the end ` +
        `(5-minute ${loadAtEnd[1]!.toFixed(2)}), 2 cores.`,
    );
    succeeded = true;
    keepLog = failed.length > 0;
    return rows;
  } finally {
    clearInterval(sampler);
    clearInterval(heapSampler);
    for (const life of lives) {
      life.agent.destroy();
      if (life.endedAt === null) await stopProcess(life.child);
    }
    await receiver?.close();
    await s3?.close();
    closeSync(log);
    if (!('cannot' in cluster)) await ensureRunning(cluster, say);
    // The replicas' output (warnings and worse) is kept when the scenario failed or a request did.
    if (succeeded && !keepLog) rmSync(scratch, { recursive: true, force: true });
    else say(`soak: the replicas' output is in ${logPath}`);
  }
}

/** Whatever happened, the cluster is left running. */
async function ensureRunning(cluster: { version: string; name: string }, say: (line: string) => void): Promise<void> {
  try {
    await execFileAsync('pg_ctlcluster', [cluster.version, cluster.name, 'status']);
  } catch {
    say(`soak: PostgreSQL ${cluster.version} ${cluster.name} was down after the scenario; starting it`);
    await execFileAsync('pg_ctlcluster', [cluster.version, cluster.name, 'start']);
  }
}
