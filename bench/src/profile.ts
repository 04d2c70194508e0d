/**
 * `npm run bench:profile [valid|malformed|unknown|submit|upload]`: one load (`GET /v1/forms/{id}` with a
 * key of that kind, `POST …/submissions` with a valid one, or scenario 17's uploads) against a
 * server running under `node --cpu-prof`, then where its CPU time went, by package and by function.
 * The profile itself stays in the printed directory for Chrome's DevTools.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@lfk/api';
import { drive, type Load } from './load.ts';
import { serverEnv, startBenchServer } from './processes.ts';
import { AT_ONCE, FILE_BYTES, multipartBody, sendBatch, UPLOAD_LIMITS, uploadTarget } from './scenarios/uploads.ts';
import { seed, withBadChecksum } from './seed.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const kind = process.argv[2] ?? 'valid';
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const dir = mkdtempSync(join(tmpdir(), 'lfk-profile-'));
// Uploads go to a data directory on disk, as scenario 17's do, with its limits.
const uploading = kind === 'upload';
const dataDir = uploading ? mkdtempSync(join(tmpdir(), 'lfk-profile-data-')) : 'memory://';
const server = await startBenchServer(
  { ...serverEnv(databaseUrl ? { databaseUrl } : { dataDir }), ...(uploading ? UPLOAD_LIMITS : {}) },
  ['--cpu-prof', `--cpu-prof-dir=${dir}`],
);
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
};
const load = loads[kind];
if (!load && !uploading) throw new Error(`usage: npm run bench:profile [${[...Object.keys(loads), 'upload'].join('|')}]`);
const summary = load ? await driven(load) : await uploaded();
await server.stop();
if (uploading) rmSync(dataDir, { recursive: true, force: true });

async function driven(load: Load): Promise<string> {
  const result = await drive(url, load, { durationS: Number(process.env.BENCH_DURATION ?? 8), connections: 10, rounds: 1 });
  return `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`;
}

/** Scenario 17's load: 64 files of 10 MiB, 8 at once (BENCH_UPLOADS). */
async function uploaded(): Promise<string> {
  const files = Number(process.env.BENCH_UPLOADS ?? 64);
  const batch = await sendBatch(await uploadTarget(server), multipartBody(FILE_BYTES), files, AT_ONCE);
  return `${((files * FILE_BYTES) / batch.seconds / 1e6).toFixed(0)} MB/s of 10 MiB files, ${AT_ONCE} at once`;
}

const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const packageOf = (url: string) => {
  if (url.includes('node_modules/')) {
    const parts = url.split('node_modules/').at(-1)!.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  if (url.startsWith('node:') || url === '') return url || '(native)';
  return `lfk ${url.replace(/^file:\/\/.*?\/(apps|packages|bench)\//, '$1/')}`;
};
const byPackage = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)!.callFrame;
  const micros = profile.timeDeltas[i] ?? 0;
  total += micros;
  const where = packageOf(frame.url);
  byPackage.set(where, (byPackage.get(where) ?? 0) + micros);
  const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
});
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, micros]) => `${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
process.stdout.write(
  `${kind}: ${summary}\n` +
    `profile (start-up and seeding included): ${join(dir, file)}\n\nby package\n${top(byPackage, 15)}\n\nby function\n${top(byFunction, 25)}\n`,
);
