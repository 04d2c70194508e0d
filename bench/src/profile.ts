/**
 * `npm run bench:profile [valid|malformed|unknown|submit|keyed|browser|upload]`: one load
 * (`GET /v1/forms/{id}` with a key of that kind; `POST …/submissions` with a key to a form that
 * notifies (`submit`) or to a quiet one (`keyed`), or an HTML form post (`browser`); or scenario
 * 17's uploads) against a server whose CPU is profiled while the load runs (after a warm-up), then
 * where its CPU time went per request: by package, native work counted for the JavaScript that
 * called it, and by function; the statements it sent and, on PostgreSQL, the database's CPU.
 * The profile itself stays in the printed directory for Chrome's DevTools.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@lfk/api';
import { drive, type Load } from './load.ts';
import { postgresCpuClock, serverEnv, startBenchServer } from './processes.ts';
import { browserSubmission, keyedSubmission } from './scenarios/lower-bound.ts';
import { AT_ONCE, FILE_BYTES, multipartBody, sendBatch, UPLOAD_LIMITS, uploadTarget } from './scenarios/uploads.ts';
import { seed, withBadChecksum } from './seed.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const kind = process.argv[2] ?? 'valid';
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const dir = mkdtempSync(join(tmpdir(), 'lfk-profile-'));
const profilePath = join(dir, `${kind}.cpuprofile`);
// Uploads go to a data directory on disk, as scenario 17's do, with its limits.
const uploading = kind === 'upload';
const dataDir = uploading ? mkdtempSync(join(tmpdir(), 'lfk-profile-data-')) : 'memory://';
const server = await startBenchServer({ ...serverEnv(databaseUrl ? { databaseUrl } : { dataDir }), ...(uploading ? UPLOAD_LIMITS : {}) });
const url = server.url;
const seeded = await seed(server, 1);
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
const queriesBefore = await server.queries();
const databaseClock = databaseUrl ? postgresCpuClock() : null;
const measured = await server.profile(profilePath, () => (load ? driven(load) : uploaded()));
const databaseSeconds = databaseClock?.() ?? 0;
const statements = (await server.queries()) - queriesBefore;
await server.stop();
if (uploading) rmSync(dataDir, { recursive: true, force: true });

async function driven(load: Load): Promise<{ summary: string; requests: number }> {
  const result = await drive(url, load, settings);
  return { summary: `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`, requests: result.total };
}

/** Scenario 17's load: 64 files of 10 MiB, 8 at once (BENCH_UPLOADS). */
async function uploaded(): Promise<{ summary: string; requests: number }> {
  const files = Number(process.env.BENCH_UPLOADS ?? 64);
  const batch = await sendBatch(await uploadTarget(server), multipartBody(FILE_BYTES), files, AT_ONCE);
  return { summary: `${((files * FILE_BYTES) / batch.seconds / 1e6).toFixed(0)} MB/s of 10 MiB files, ${AT_ONCE} at once`, requests: files };
}

const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const isNative = (url: string) => url === '';
const packageOf = (url: string) => {
  if (url.includes('node_modules/')) {
    const parts = url.split('node_modules/').at(-1)!.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:').split('/')[0]!;
  return `lfk ${url.replace(/^file:\/\/.*?\/(apps|packages|bench)\//, '$1/').replace(/\/[^/]+$/, '/')}`;
};
const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
/** Where a sample's time goes: its own package, or for native work, that of the nearest JavaScript caller. */
function whereOf(id: number): string {
  const frame = byId.get(id)!.callFrame;
  if (!isNative(frame.url) || IDLE.has(frame.functionName)) return IDLE.has(frame.functionName) ? frame.functionName : packageOf(frame.url);
  for (let up = parentOf.get(id); up !== undefined; up = parentOf.get(up)) {
    const caller = byId.get(up)!.callFrame;
    if (!isNative(caller.url)) return `${packageOf(caller.url)} (native work)`;
  }
  return '(native)';
}
const byPackage = new Map<string, number>();
const byFunction = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)!.callFrame;
  const micros = profile.timeDeltas[i] ?? 0;
  const where = whereOf(id);
  byPackage.set(where, (byPackage.get(where) ?? 0) + micros);
  if (frame.functionName !== '(idle)') busy += micros;
  const name = `${frame.functionName || '(anonymous)'} ${isNative(frame.url) ? where : `${packageOf(frame.url)}:${frame.lineNumber + 1}`}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
});
const requests = measured.requests;
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, micros]) => `${(micros / requests).toFixed(1).padStart(7)} µs ${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
process.stdout.write(
  `${kind}: ${measured.summary}; ${requests} requests profiled\n` +
    `server CPU ${(busy / requests).toFixed(1)} µs per request (sampled), ${(statements / requests).toFixed(2)} statements per request` +
    (databaseUrl ? `, PostgreSQL CPU ${((databaseSeconds * 1e6) / requests).toFixed(1)} µs per request` : '') +
    `\nprofile: ${profilePath}\n\nby package (per request, share of the busy time)\n${top(byPackage, 20)}\n\nby function\n${top(byFunction, 25)}\n`,
);
