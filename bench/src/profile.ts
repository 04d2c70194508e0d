/**
 * `npm run bench:profile [valid|malformed|unknown|submit|keyed|browser|upload]`: one load
 * (`GET /v1/forms/{id}` with a key of that kind; `POST …/submissions` with a key to a form that
 * notifies (`submit`) or to a quiet one (`keyed`), or an HTML form post (`browser`); or scenario
 * 17's uploads) against a server whose CPU is profiled while the load runs (after a warm-up), then
 * where its CPU time went per request: by package, native work counted for the JavaScript that
 * called it, and by function; the statements it sent and, on PostgreSQL, the database's CPU.
 * The profile itself stays in the printed directory for Chrome's DevTools. With
 * `BENCH_PROFILE_SERVER=bound` (and BENCH_DATABASE_URL) the same load is profiled on scenario 8's
 * hand-written lower bound instead, on the database lfk seeded: where the bound's time goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@lfk/api';
import { drive, type Load } from './load.ts';
import { serverEnv, startBenchServer, startLowerBound } from './processes.ts';
import { profiled } from './profiling.ts';
import { browserSubmission, keyedSubmission } from './scenarios/lower-bound.ts';
import { AT_ONCE, FILE_BYTES, multipartBody, sendBatch, UPLOAD_LIMITS, uploadTarget } from './scenarios/uploads.ts';
import { seed, withBadChecksum } from './seed.ts';

const kind = process.argv[2] ?? 'valid';
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const dir = mkdtempSync(join(tmpdir(), 'lfk-profile-'));
const profilePath = join(dir, `${kind}.cpuprofile`);
// Uploads go to a data directory on disk, as scenario 17's do, with its limits.
const uploading = kind === 'upload';
const dataDir = uploading ? mkdtempSync(join(tmpdir(), 'lfk-profile-data-')) : 'memory://';
const server = await startBenchServer({ ...serverEnv(databaseUrl ? { databaseUrl } : { dataDir }), ...(uploading ? UPLOAD_LIMITS : {}) });
const seeded = await seed(server, 1);
const profiledBound = process.env.BENCH_PROFILE_SERVER === 'bound';
if (profiledBound && (!databaseUrl || uploading)) throw new Error("BENCH_PROFILE_SERVER=bound profiles scenario 8's loads, on BENCH_DATABASE_URL");
const target = profiledBound ? await startLowerBound(databaseUrl!) : server;
const url = target.url;
const valid = { authorization: `Bearer ${seeded.keys[0]!.key}` };
const read = (authorization: string, expect: number): Load => ({ path: `/v1/forms/${seeded.formId}`, headers: { authorization }, expect });
const loads: Record<string, Load> = {
  valid: read(valid.authorization, 200),
  malformed: read(`Bearer ${withBadChecksum(seeded.keys[0]!.key)}`, 401),
  unknown: read(`Bearer ${generateApiKey().key}`, 401),
  submit: {
    method: 'POST',
    path: `/v1/forms/${seeded.apiKeyFormId}/submissions`,
    headers: valid,
    body: JSON.stringify({ email: 'buyer@example.org', message: 'one more order' }),
    expect: 201,
  },
  keyed: keyedSubmission(seeded),
  browser: browserSubmission(seeded),
};
const load = loads[kind];
if (!load && !uploading) throw new Error(`usage: npm run bench:profile [${[...Object.keys(loads), 'upload'].join('|')}]`);
const settings = { durationS: Number(process.env.BENCH_DURATION ?? 8), connections: Number(process.env.BENCH_CONNECTIONS ?? 10), rounds: 1 };
if (load) await drive(url, load, { ...settings, durationS: 2 });
// The bound counts no statements; by its code, one per request.
const measured = await profiled(target, profilePath, { countsStatements: !profiledBound, onPostgres: databaseUrl !== undefined }, () =>
  load ? driven(load) : uploaded(),
);
if (profiledBound) await target.stop();
await server.stop();
if (uploading) rmSync(dataDir, { recursive: true, force: true });

async function driven(load: Load) {
  const result = await drive(url, load, settings);
  const summary = `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`;
  return { summary, requestsPerSecond: result.requestsPerSecond, requests: result.total };
}

/** Scenario 17's load: 64 files of 10 MiB, 8 at once (BENCH_UPLOADS). */
async function uploaded() {
  const files = Number(process.env.BENCH_UPLOADS ?? 64);
  const batch = await sendBatch(await uploadTarget(server), multipartBody(FILE_BYTES), files, AT_ONCE);
  return {
    summary: `${((files * FILE_BYTES) / batch.seconds / 1e6).toFixed(0)} MB/s of 10 MiB files, ${AT_ONCE} at once`,
    requestsPerSecond: files / batch.seconds,
    requests: files,
  };
}

const { requests, found, statements, databaseMicros } = measured;
const lines = (rows: [string, number][], n: number) =>
  rows
    .slice(0, n)
    .map(([name, micros]) => `${micros.toFixed(1).padStart(7)} µs ${((micros / found.busyMicros) * 100).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
process.stdout.write(
  `${profiledBound ? 'the lower bound, ' : ''}${kind}: ${measured.summary}; ${requests} requests profiled\n` +
    `busy ${found.busyMicros.toFixed(1)} µs per request (sampled), CPU ${measured.cpuMicros.toFixed(1)} µs per request (/proc)` +
    (statements === null ? '' : `, ${statements.toFixed(2)} statements per request`) +
    (databaseMicros === null ? '' : `, PostgreSQL CPU ${databaseMicros.toFixed(1)} µs per request`) +
    `\nprofile: ${profilePath}\n\nby stage (per request, share of the busy time)\n${lines(found.byStage, 12)}` +
    `\n\nby package\n${lines(found.byPackage, 20)}\n\nby function\n${lines(found.byFunction, 25)}\n`,
);
