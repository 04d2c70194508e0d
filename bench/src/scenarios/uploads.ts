import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLfkClient } from '@lfk/client';
import { type S3Server, startS3Server } from '@lfk/testing';
import { Pool } from 'undici';
import { median, percentile } from '../load.ts';
import { type BenchServer, serverEnv, startBenchServer, startUploadBaseline } from '../processes.ts';
import type { Row } from '../report.ts';
import { seed } from '../seed.ts';

const MIB = 2 ** 20;
/** The file the throughput is measured with, and how many are sent at once. */
export const FILE_BYTES = 10 * MIB;
export const AT_ONCE = 8;
/** The memory measure: this many files of this size at once. */
const BIG_FILE_BYTES = 25 * MIB;
const BIG_AT_ONCE = 20;
/** How many times the memory measure is taken; the row gives the worst. */
const MEMORY_TRIALS = 3;
/** How often the server's RSS is read while the big files arrive (the kernel's high-water mark is read too). */
const SAMPLE_EVERY_MS = 10;
/** No batch of uploads may take longer: the scenario is bounded in time as well as in count. */
const BATCH_DEADLINE_MS = 180_000;

export interface UploadSettings {
  /** Files sent in each measured run (BENCH_UPLOADS). */
  files: number;
  /** Turns of baseline and lfk (BENCH_UPLOAD_ROUNDS). */
  rounds: number;
}

/** Where uploads go: a server, the path it takes them on, and what each request carries besides the body. */
export interface Target {
  server: BenchServer;
  path: string;
  headers: Record<string, string>;
}

/** One multipart/form-data body of one file part of random bytes (incompressible; sniffed as nothing known), built once. */
export function multipartBody(bytes: number): { body: Buffer; contentType: string } {
  const boundary = `----lfk-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="upload.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return { body: Buffer.concat([head, randomBytes(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Batch {
  seconds: number;
  /** Each upload's time, from its request's start to its answer's end, in ms, sorted. */
  latencies: number[];
  /** The server's CPU time (user + system) over the batch, in seconds. */
  cpuSeconds: number;
}

/**
 * `count` uploads of `upload`, `atOnce` at a time over as many kept-alive connections (undici),
 * each answered 201 or the batch fails: a refused upload must not count as a fast one.
 */
export async function sendBatch(target: Target, upload: { body: Buffer; contentType: string }, count: number, atOnce: number): Promise<Batch> {
  const pool = new Pool(target.server.url, { connections: atOnce, pipelining: 1 });
  const signal = AbortSignal.timeout(BATCH_DEADLINE_MS);
  const latencies: number[] = [];
  let next = 0;
  const one = async () => {
    const started = performance.now();
    const answer = await pool.request({
      path: target.path,
      method: 'POST',
      headers: { ...target.headers, 'content-type': upload.contentType, 'content-length': String(upload.body.length) },
      body: upload.body,
      signal,
    });
    const text = await answer.body.text();
    if (answer.statusCode !== 201) throw new Error(`an upload to ${target.path} was answered ${answer.statusCode}: ${text.slice(0, 300)}`);
    latencies.push(performance.now() - started);
  };
  const cpuBefore = target.server.cpuSeconds();
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: atOnce }, async () => {
        while (next < count) {
          next++;
          await one();
        }
      }),
    );
  } finally {
    await pool.close();
  }
  return { seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b), cpuSeconds: target.server.cpuSeconds() - cpuBefore };
}

/** Megabytes (10⁶ bytes) of file a second. */
const rateOf = (batch: Batch, files: number, bytes: number) => (files * bytes) / batch.seconds / 1e6;

interface Throughput {
  baseline: number;
  lfk: number;
  ratio: number;
  range: [number, number];
  latency: { baseline: [number, number]; lfk: [number, number] };
  /** Server CPU seconds per 100 MB of file. */
  cpuPer100MB: { baseline: number; lfk: number };
}

/**
 * 10 MiB files 8 at once to lfk and to its baseline, in turns (baseline, lfk, …) after a warm-up
 * of both, as `compare` does for request loads: MB/s of file, the median ratio of the rounds.
 */
async function throughput(lfk: Target, baseline: Target, settings: UploadSettings): Promise<Throughput> {
  const upload = multipartBody(FILE_BYTES);
  await sendBatch(baseline, upload, AT_ONCE, AT_ONCE);
  await sendBatch(lfk, upload, AT_ONCE, AT_ONCE);
  const runs = { baseline: [] as Batch[], lfk: [] as Batch[] };
  for (let round = 0; round < settings.rounds; round++) {
    runs.baseline.push(await sendBatch(baseline, upload, settings.files, AT_ONCE));
    runs.lfk.push(await sendBatch(lfk, upload, settings.files, AT_ONCE));
  }
  const rates = (which: 'baseline' | 'lfk') => runs[which].map((b) => rateOf(b, settings.files, FILE_BYTES));
  const ratios = rates('lfk').map((rate, i) => rate / rates('baseline')[i]!);
  const all = (which: 'baseline' | 'lfk') => runs[which].flatMap((b) => b.latencies).sort((a, b) => a - b);
  const latency = (which: 'baseline' | 'lfk'): [number, number] => [percentile(all(which), 50), percentile(all(which), 99)];
  const cpu = (which: 'baseline' | 'lfk') => (runs[which].reduce((sum, b) => sum + b.cpuSeconds, 0) / (settings.rounds * settings.files * FILE_BYTES)) * 1e8;
  return {
    baseline: median(rates('baseline')),
    lfk: median(rates('lfk')),
    ratio: median(ratios),
    range: [Math.min(...ratios), Math.max(...ratios)],
    latency: { baseline: latency('baseline'), lfk: latency('lfk') },
    cpuPer100MB: { baseline: cpu('baseline'), lfk: cpu('lfk') },
  };
}

interface Memory {
  idle: number;
  peak: number;
  after: number;
  seconds: number;
}

/**
 * 20 files of 25 MiB at once: the server's RSS at idle (after a memory-reducing collection, so
 * garbage the load leaves counts against it) and at its highest while they arrive (sampled, and
 * the kernel's high-water mark, reset just before), and again once they are stored and collected.
 */
async function memory(target: Target): Promise<Memory> {
  const upload = multipartBody(BIG_FILE_BYTES);
  // One first, so what the first upload of this size loads or grows is not counted.
  await sendBatch(target, upload, 1, 1);
  const settle = async () => {
    await target.server.collect();
    await sleep(500);
    return target.server.rssBytes();
  };
  const idle = await settle();
  target.server.resetPeakRss();
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, target.server.rssBytes());
  }, SAMPLE_EVERY_MS);
  let batch: Batch;
  try {
    batch = await sendBatch(target, upload, BIG_AT_ONCE, BIG_AT_ONCE);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, target.server.peakRssBytes());
  return { idle, peak, after: await settle(), seconds: batch.seconds };
}

interface Backend {
  name: 'directory' | 's3';
  /** The server's settings for this backend, beyond the bench's own. */
  env: Record<string, string>;
  baselines: { label: string; start: () => Promise<BenchServer>; target: boolean }[];
}

/** lfk's limits raised so a form takes one 25 MiB file (the defaults are 10 MiB a file, 25 MiB a submission). */
export const UPLOAD_LIMITS = { LFK_MAX_FILE_SIZE: String(BIG_FILE_BYTES), LFK_MAX_SUBMISSION_SIZE: String(BIG_FILE_BYTES) };

/** An \`api_key\` form of lfk's taking one file of up to 25 MiB, made by a new account, and its submission route with a key. */
export async function uploadTarget(server: BenchServer): Promise<Target> {
  const seeded = await seed(server, 1);
  const form = await createLfkClient({ baseUrl: server.url, apiKey: seeded.keys[0]!.key }).forms.create.mutate({
    name: 'Uploads',
    schema: [{ name: 'document', type: 'file', required: true, max_size: BIG_FILE_BYTES }],
    submission_mode: 'api_key',
  });
  return { server, path: `/v1/forms/${form.id}/submissions`, headers: { authorization: `Bearer ${seeded.keys[0]!.key}` } };
}

/**
 * Scenario 17: uploads, on each backend (the data directory, and S3 against the test world's
 * s3rver in its own process). Throughput of 10 MiB files 8 at once against the hand-written
 * baseline (upload-baseline/server.ts) on the same storage, target ≥ 0.50; lfk's RSS while 20
 * files of 25 MiB arrive at once, target < 50 MiB above idle. lfk runs on a fresh embedded
 * database with `npm start`'s flags, its scanner off.
 */
export async function uploads(settings: UploadSettings, notes: string[], say: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const engine = 'PGlite';
  for (const name of ['directory', 's3'] as const) {
    const scratch = mkdtempSync(join(tmpdir(), `lfk-bench-uploads-${name}-`));
    let s3: S3Server | null = null;
    const started: BenchServer[] = [];
    try {
      const dataDir = join(scratch, 'data');
      const byHand = join(scratch, 'by-hand');
      mkdirSync(byHand);
      let backend: Backend;
      if (name === 'directory') {
        backend = {
          name,
          env: {},
          baselines: [{ label: 'by hand: file + fsync', start: () => startUploadBaseline(byHand, BIG_FILE_BYTES), target: true }],
        };
      } else {
        s3 = await startS3Server();
        const bucket = { endpoint: s3.endpoint, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };
        backend = {
          name,
          env: {
            LFK_S3_ENDPOINT: s3.endpoint,
            LFK_S3_BUCKET: s3.bucket,
            LFK_S3_ACCESS_KEY_ID: s3.accessKeyId,
            LFK_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
            LFK_S3_FORCE_PATH_STYLE: 'true',
          },
          baselines: [
            { label: 'by hand: spool + PutObject', start: () => startUploadBaseline(byHand, BIG_FILE_BYTES, bucket), target: true },
            {
              label: 'by hand: in memory + PutObject, reference',
              start: () => startUploadBaseline(byHand, BIG_FILE_BYTES, { ...bucket, inMemory: true }),
              target: false,
            },
          ],
        };
      }
      say(`uploads: ${name}`);
      const server = await startBenchServer({ ...serverEnv({ dataDir }), ...UPLOAD_LIMITS, ...backend.env });
      started.push(server);
      const lfk = await uploadTarget(server);

      let target: Target | null = null;
      for (const b of backend.baselines) {
        const baselineServer = await b.start();
        started.push(baselineServer);
        const baseline: Target = { server: baselineServer, path: '/', headers: {} };
        if (b.target) target = baseline;
        const result = await throughput(lfk, baseline, settings);
        const what = `10 MiB × ${AT_ONCE} at once, ${name}`;
        rows.push({
          scenario: `17 · baseline, ${b.label}: ${what}, MB/s`,
          engine,
          requestsPerSecond: result.baseline,
          p50Ms: result.latency.baseline[0],
          p99Ms: result.latency.baseline[1],
        });
        rows.push({
          scenario: `17 · lfk: ${what}, MB/s${b.target ? '' : ` (vs the reference)`}`,
          engine,
          requestsPerSecond: result.lfk,
          p50Ms: result.latency.lfk[0],
          p99Ms: result.latency.lfk[1],
          ratio: result.ratio,
          ratioRange: result.range,
          ...(b.target ? { target: '≥ 0.50', met: result.ratio >= 0.5 } : {}),
        });
        notes.push(
          `Scenario 17 (${name}, ${b.label}): ${settings.rounds} turn${settings.rounds === 1 ? '' : 's'} ` +
            `of ${settings.files} files of 10 MiB, ${AT_ONCE} at once: ` +
            `${result.lfk.toFixed(0)} MB/s lfk, ${result.baseline.toFixed(0)} MB/s by hand (medians); an upload took ` +
            `${result.latency.lfk[0].toFixed(0)} ms (p50) lfk, ${result.latency.baseline[0].toFixed(0)} ms by hand. Server CPU per 100 MB of file: ` +
            `${result.cpuPer100MB.lfk.toFixed(2)} s lfk, ${result.cpuPer100MB.baseline.toFixed(2)} s by hand` +
            `${name === 's3' ? ' (s3rver’s own CPU, in its process, is counted for neither)' : ''}.`,
        );
      }
      // Last: the memory-reducing collections it asks for shrink lfk's heap, and the uploads that
      // follow one pay for growing it back (twice the CPU a byte for a while): no throughput after it.
      const baseline = target!;
      say(`uploads: ${name}, memory`);
      // A few times: garbage V8 has not collected yet is most of what the peak holds, and how much varies.
      const trials: Memory[] = [];
      for (let i = 0; i < MEMORY_TRIALS; i++) trials.push(await memory(lfk));
      const aboveIdle = (m: Memory) => (m.peak - m.idle) / MIB;
      const worst = trials.reduce((a, b) => (aboveIdle(b) > aboveIdle(a) ? b : a));
      const above = aboveIdle(worst);
      rows.push({
        scenario: `17 · lfk RSS at most (MiB above idle), ${BIG_AT_ONCE} × 25 MiB uploads at once, ${name} (worst of ${MEMORY_TRIALS})`,
        engine,
        ratio: above,
        target: '< 50',
        met: above < 50,
      });
      const byHandHeld = await memory(baseline);
      notes.push(
        `Scenario 17 (${name}): ${BIG_AT_ONCE} files of 25 MiB at once, ${MEMORY_TRIALS} times: ` +
          `lfk's RSS +${trials.map((m) => aboveIdle(m).toFixed(1)).join(', +')} MiB above idle at most; ` +
          `at worst ${(worst.idle / MIB).toFixed(0)} MiB at idle (after a memory-reducing collection), ${(worst.peak / MIB).toFixed(0)} MiB at most, ` +
          `${(worst.after / MIB).toFixed(0)} MiB once they were stored and collected (all ${BIG_AT_ONCE} stored in ${worst.seconds.toFixed(1)} s). ` +
          `The baseline under the same load: ${(byHandHeld.idle / MIB).toFixed(0)} MiB at idle, +${aboveIdle(byHandHeld).toFixed(1)} MiB at most.`,
      );
    } finally {
      for (const server of started) await server.stop();
      await s3?.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return rows;
}
