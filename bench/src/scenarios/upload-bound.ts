import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLfkClient } from '@lfk/client';
import { median, percentile } from '../load.ts';
import { type BenchServer, postgresCpuClock, serverEnv, startBenchServer, startLowerBound, startUploadBaseline } from '../processes.ts';
import type { Row } from '../report.ts';
import { seed } from '../seed.ts';
import { sendBatch, type Target } from './uploads.ts';

const MIB = 2 ** 20;
/** The file: one PDF of 1 MiB (a PDF's signature, then random bytes). */
const FILE_BYTES = MIB;
/** Connections, each sending one upload at a time: the two loads. */
const CONNECTIONS = [8, 32] as const;

export interface UploadBoundSettings {
  /** Uploads in each measured batch (BENCH_BOUND_UPLOADS). */
  uploads: number;
  /** Turns of raw, bound, lfk on PostgreSQL and lfk on the embedded database (BENCH_UPLOAD_ROUNDS). */
  rounds: number;
}

/** One multipart/form-data body of one 1 MiB PDF in the field `document`, built once. */
function pdfBody(bytes: number): { body: Buffer; contentType: string } {
  const boundary = `----lfk-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const signature = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  const file = Buffer.concat([signature, randomBytes(bytes - signature.length)]);
  return { body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** An `api_key` form of lfk's taking one PDF and notifying nobody, made by a new account: its route, and the key that sends to it. */
async function pdfForm(server: BenchServer): Promise<{ formId: string; key: string }> {
  const seeded = await seed(server, 1);
  const key = seeded.keys[0]!.key;
  const form = await createLfkClient({ baseUrl: server.url, apiKey: key }).forms.create.mutate({
    name: 'Invoices',
    schema: [{ name: 'document', type: 'file', required: true, accept: ['application/pdf'] }],
    submission_mode: 'api_key',
  });
  return { formId: form.id, key };
}

type Side = 'raw' | 'bound' | 'postgres' | 'embedded';

interface Measured {
  /** Uploads a second, each batch. */
  rates: number[];
  latencies: number[];
  /** Server CPU seconds, and PostgreSQL's (every `postgres` process), over all batches. */
  cpuSeconds: number;
  databaseCpuSeconds: number;
  uploads: number;
}

/**
 * Scenario 20, on PostgreSQL: the upload lower bound. One 1 MiB PDF a request,
 * multipart/form-data with a key, 8 and then 32 connections, each sending one upload at a time.
 * lfk on PostgreSQL against the hand-written bound (lower-bound/server.ts's upload route:
 * Fastify, `@fastify/multipart`, sha256, `file-type`, fsync, rename, the folder's fsync, the
 * submission and its file row in one statement, on the same database) and against the raw ceiling
 * (upload-baseline/server.ts, raw: the body into a file, fsynced); and lfk on its embedded database
 * against lfk on PostgreSQL. All four run at once, idle but for their turn; after a warm-up of each,
 * raw, bound, lfk on PostgreSQL and lfk embedded take turns (the order turned by one each round),
 * each a batch of the same uploads.
 */
export async function uploadBound(databaseUrl: string, settings: UploadBoundSettings, notes: string[], say: (line: string) => void): Promise<Row[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'lfk-bench-upload-bound-'));
  const started: BenchServer[] = [];
  const start = async (server: Promise<BenchServer>) => {
    const s = await server;
    started.push(s);
    return s;
  };
  const rows: Row[] = [];
  try {
    for (const folder of ['raw', 'bound', 'postgres', 'embedded']) mkdirSync(join(scratch, folder));
    say('upload bound: starting the servers');
    const postgres = await start(startBenchServer({ ...serverEnv({ databaseUrl }), LFK_DATA_DIR: join(scratch, 'postgres') }));
    const embedded = await start(startBenchServer(serverEnv({ dataDir: join(scratch, 'embedded') })));
    const bound = await start(startLowerBound(databaseUrl, join(scratch, 'bound')));
    const raw = await start(startUploadBaseline(join(scratch, 'raw'), 2 * FILE_BYTES, undefined, true));
    const onPostgres = await pdfForm(postgres);
    const onEmbedded = await pdfForm(embedded);
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });
    const targets: Record<Side, Target> = {
      raw: { server: raw, path: '/', headers: {} },
      // The bound reads lfk's own form and key, on the same database.
      bound: { server: bound, path: `/uploads/v1/forms/${onPostgres.formId}/submissions`, headers: auth(onPostgres.key) },
      postgres: { server: postgres, path: `/v1/forms/${onPostgres.formId}/submissions`, headers: auth(onPostgres.key) },
      embedded: { server: embedded, path: `/v1/forms/${onEmbedded.formId}/submissions`, headers: auth(onEmbedded.key) },
    };
    const upload = pdfBody(FILE_BYTES);
    const sides: Side[] = ['raw', 'bound', 'postgres', 'embedded'];
    for (const connections of CONNECTIONS) {
      say(`upload bound: 1 MiB PDFs, ${connections} connections`);
      for (const side of sides) await sendBatch(targets[side], upload, connections * 4, connections);
      const measured = Object.fromEntries(
        sides.map((side) => [side, { rates: [], latencies: [], cpuSeconds: 0, databaseCpuSeconds: 0, uploads: 0 } as Measured]),
      ) as Record<Side, Measured>;
      const load = loadavg()[0]!;
      for (let round = 0; round < settings.rounds; round++) {
        // The order turns each round: no side always follows the same one (a server falling idle
        // after its batch collects garbage and flushes, on the same 2 cores and disk).
        for (const side of sides.map((_, i) => sides[(i + round) % sides.length]!)) {
          const database = postgresCpuClock();
          const batch = await sendBatch(targets[side], upload, settings.uploads, connections);
          const m = measured[side];
          m.databaseCpuSeconds += database();
          m.rates.push(settings.uploads / batch.seconds);
          m.latencies.push(...batch.latencies);
          m.cpuSeconds += batch.cpuSeconds;
          m.uploads += settings.uploads;
        }
      }
      const ratios = (subject: Side, baseline: Side) => measured[subject].rates.map((rate, i) => rate / measured[baseline].rates[i]!);
      const figures = (side: Side) => {
        const sorted = [...measured[side].latencies].sort((a, b) => a - b);
        return { requestsPerSecond: median(measured[side].rates), p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
      };
      const compared = (subject: Side, baseline: Side, target: number) => {
        const all = ratios(subject, baseline);
        const ratio = median(all);
        return { ratio, ratioRange: [Math.min(...all), Math.max(...all)] as [number, number], target: `≥ ${target.toFixed(2)}`, met: ratio >= target };
      };
      const what = `one 1 MiB PDF, ${connections} connections, uploads/s`;
      rows.push({ scenario: `20 · raw ceiling: body to a file + fsync, ${what}`, engine: 'PostgreSQL', ...figures('raw') });
      rows.push({ scenario: `20 · lower bound: Fastify + @fastify/multipart, ${what}`, engine: 'PostgreSQL', ...figures('bound') });
      rows.push({ scenario: `20 · lfk: ${what} (÷ lower bound)`, engine: 'PostgreSQL', ...figures('postgres'), ...compared('postgres', 'bound', 0.85) });
      rows.push({ scenario: `20 · lfk: ${what} (÷ raw ceiling)`, engine: 'PostgreSQL', ...compared('postgres', 'raw', 0.5) });
      rows.push({
        scenario: `20 · lfk on PGlite ÷ lfk on PostgreSQL: ${what}`,
        engine: 'both',
        ...figures('embedded'),
        ...compared('embedded', 'postgres', 0.8),
      });
      const perUpload = (side: Side, seconds: number) => ((seconds / measured[side].uploads) * 1e3).toFixed(2);
      notes.push(
        `Scenario 20 (${connections} connections, ${settings.rounds} turns of ${settings.uploads} uploads each; 1-minute load average ${load.toFixed(2)} ` +
          `as they began): CPU per upload ${perUpload('postgres', measured.postgres.cpuSeconds)} ms lfk on PostgreSQL, ` +
          `${perUpload('bound', measured.bound.cpuSeconds)} ms the lower bound, ${perUpload('raw', measured.raw.cpuSeconds)} ms raw, ` +
          `${perUpload('embedded', measured.embedded.cpuSeconds)} ms lfk on PGlite (its database's thread included); PostgreSQL CPU per upload ` +
          `${perUpload('postgres', measured.postgres.databaseCpuSeconds)} ms with lfk, ` +
          `${perUpload('bound', measured.bound.databaseCpuSeconds)} ms with the bound.`,
      );
    }
  } finally {
    for (const server of started) await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  return rows;
}
