/**
 * `npm run bench`: every scenario of docs/benchmarks.md on the embedded database, and on PostgreSQL
 * too when BENCH_DATABASE_URL is set. Prints the table and writes docs/benchmarks.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadSettings } from './load.ts';
import { type BenchServer, REPO, serverEnv, startBenchServer, startLowerBound } from './processes.ts';
import { mergeReport, type Row, table, writeReport, writtenRows } from './report.ts';
import { keyVerification, NOTIFYING_SUBMISSIONS, QUIET_SUBMISSIONS, submissionsWithoutFiles } from './scenarios/key-verification.ts';
import { lowerBound } from './scenarios/lower-bound.ts';
import { contentFilter } from './scenarios/content-filter.ts';
import { memory } from './scenarios/memory.ts';
import { revocationPropagation } from './scenarios/revocation-propagation.ts';
import { startup } from './scenarios/startup.ts';
import { webhookDrain, webhookDrainWithKill, webhookFairness, webhookLatency, webhookRecover, webhookSoak } from './scenarios/webhooks.ts';
import { exportScenario } from './scenarios/export.ts';
import { passwordResetTiming } from './scenarios/password-reset-timing.ts';
import { soak } from './scenarios/soak.ts';
import { uploads } from './scenarios/uploads.ts';
import { uploadBound } from './scenarios/upload-bound.ts';
import { whereTimeGoes } from './scenarios/where-time-goes.ts';
import { type Seed, seed } from './seed.ts';

const settings: LoadSettings = {
  durationS: Number(process.env.BENCH_DURATION ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  rounds: Number(process.env.BENCH_ROUNDS ?? 4),
};
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
/** Scenario 10's submissions a second and for how long; scenarios 11 and 12's queued deliveries. */
const WEBHOOK_RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
const WEBHOOK_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 60);
const WEBHOOK_DRAIN = Number(process.env.BENCH_WEBHOOK_DRAIN ?? 10_000);
/** Submissions a second to another endpoint while scenario 19's recover is sent. */
const RECOVER_SIDE_RATE = Number(process.env.BENCH_RECOVER_SIDE_RATE ?? 50);
/** Scenario 15: the other workspace's submissions a second while one workspace's receivers hang, and for how long. */
const FAIRNESS_RATE = Number(process.env.BENCH_FAIRNESS_RATE ?? 20);
const FAIRNESS_SECONDS = Number(process.env.BENCH_FAIRNESS_SECONDS ?? 30);
/** Scenario 16: how long the soak with webhooks runs after its warm-up (at BENCH_WEBHOOK_RATE). */
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 120);
/**
 * Scenario 21: the two-replica soak's requests a second and length, warm-up included (BENCH_SOAK_SECONDS
 * shortens it too); BENCH_SOAK_METRICS=1 reads each replica's heap from /metrics, BENCH_SOAK_NODE_OPTIONS
 * gives the replicas NODE_OPTIONS: both to find a growth, not as `npm start` runs.
 */
const replicaSoak = {
  rate: Number(process.env.BENCH_SOAK_RATE ?? 200),
  seconds: Number(process.env.BENCH_SOAK_SECONDS ?? 300),
  metrics: process.env.BENCH_SOAK_METRICS === '1',
  ...(process.env.BENCH_SOAK_NODE_OPTIONS ? { nodeOptions: process.env.BENCH_SOAK_NODE_OPTIONS } : {}),
};
/** Scenario 17: files a measured run, and turns of baseline and lfk. */
const uploadSettings = { files: Number(process.env.BENCH_UPLOADS ?? 32), rounds: Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3) };
/** Scenario 20: 1 MiB uploads in each measured batch, and turns (BENCH_UPLOAD_ROUNDS, as scenario 17's). */
const boundUploadSettings = { uploads: Number(process.env.BENCH_BOUND_UPLOADS ?? 256), rounds: uploadSettings.rounds };
/**
 * `uploads`: scenarios 4 (embedded) and 17 alone; `lower-bound`: scenarios 8, 18 and 20 alone (PostgreSQL);
 * `upload-bound`: scenario 20 alone (PostgreSQL, and lfk on its embedded database beside it);
 * `embedded`: scenarios 1 to 4 on both engines, 6 on the embedded one, and 9 (the embedded database
 * against PostgreSQL); `webhooks`: scenarios 10 to 12, 15, 16 and 19 (PostgreSQL); `soak`: scenario 21
 * (PostgreSQL); `spam`: scenarios 22 and 23 (the content filter, embedded); their rows merged into
 * the page. Unset: every scenario.
 */
const only = process.env.BENCH_ONLY || undefined;
const MODES = ['uploads', 'lower-bound', 'upload-bound', 'embedded', 'webhooks', 'soak', 'spam'];
if (only !== undefined && !MODES.includes(only)) {
  throw new Error(`BENCH_ONLY takes ${MODES.map((mode) => `"${mode}"`).join(', ')}, not "${only}"`);
}
if (only !== undefined && only !== 'uploads' && only !== 'spam' && !databaseUrl) throw new Error(`BENCH_ONLY=${only} needs BENCH_DATABASE_URL`);
const REPORT = join(REPO, 'docs/benchmarks.md');
const startedAt = new Date();
const loadAtStart = loadavg()[0]!;
const rows: Row[] = [];
const notes: string[] = [];
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Runs `body` against a server started by `start`, and stops it afterwards whatever happens. */
async function withServer<T>(start: () => Promise<BenchServer>, body: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await start();
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

/**
 * Scenarios 8, 18 and 20 on PostgreSQL: lfk (`a`) against the lower bound, where each one's time
 * goes, then uploads against the upload bound and the raw ceiling (servers of their own).
 */
async function lowerBoundAndProfile(a: BenchServer, seeded: Seed, url: string): Promise<void> {
  say('lower bound');
  await withServer(
    () => startLowerBound(url),
    async (bound) => {
      rows.push(...(await lowerBound(a, bound, seeded, settings, notes)));
      say('where the time goes');
      await whereTimeGoes(a, bound, seeded, 'PostgreSQL', settings, notes);
    },
  );
  rows.push(...(await uploadBound(url, boundUploadSettings, notes, say)));
}

/**
 * The webhook scenarios on PostgreSQL: 10 to 12 and 19 with a second replica (after `beside`, which
 * uses it too), then 15 and 16 on `a` alone.
 */
async function webhookScenarios(a: BenchServer, seeded: Seed, url: string, beside?: (b: BenchServer) => Promise<void>): Promise<void> {
  await withServer(
    () => startBenchServer(serverEnv({ databaseUrl: url })),
    async (b) => {
      await beside?.(b);
      say('webhooks: latency');
      rows.push(await webhookLatency(a, b, seeded, notes, WEBHOOK_RATE, WEBHOOK_SECONDS));
      // Before the drains: their half-failing receiver leaves thousands of retries due for minutes.
      say('webhooks: a recover beside another endpoint');
      rows.push(...(await webhookRecover(a, b, seeded, url, notes, WEBHOOK_DRAIN, RECOVER_SIDE_RATE)));
      say('webhooks: drain');
      rows.push(...(await webhookDrain(a, seeded, url, notes, WEBHOOK_DRAIN)));
      say('webhooks: a replica killed mid-drain');
      rows.push(await webhookDrainWithKill(a, b, seeded, url, notes, WEBHOOK_DRAIN));
    },
  );
  say('webhooks: one workspace whose receivers hang, another delivered to');
  rows.push(await webhookFairness(a, seeded, url, notes, FAIRNESS_RATE, FAIRNESS_SECONDS));
  say('webhooks: soak with a failing receiver');
  rows.push(...(await webhookSoak(a, notes, WEBHOOK_RATE, SOAK_SECONDS)));
}

/**
 * Scenarios 1 to 3 and 6 on the embedded database (seeded with 10 active keys), the start of both the
 * full run and `BENCH_ONLY=embedded`; then `more` on the same server.
 */
async function onEmbedded<T>(more: (server: BenchServer, seeded: Seed) => Promise<T>): Promise<T> {
  say(`embedded PGlite in ${dataDir}`);
  return withServer(
    () => startBenchServer(serverEnv({ dataDir })),
    async (server) => {
      const seeded = await seed(server, 10);
      rows.push(...(await keyVerification(server, seeded, 'PGlite', settings, notes)));
      say('memory');
      rows.push(...(await memory(server, seeded, 'PGlite', settings, notes)));
      return more(server, seeded);
    },
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'lfk-bench-'));
try {
  if (only === 'lower-bound') {
    await withServer(
      () => startBenchServer(serverEnv({ databaseUrl: databaseUrl! })),
      async (a) => {
        const seeded = await seed(a, 1);
        await lowerBoundAndProfile(a, seeded, databaseUrl!);
      },
    );
  } else if (only === 'upload-bound') {
    rows.push(...(await uploadBound(databaseUrl!, boundUploadSettings, notes, say)));
  } else if (only === 'spam') {
    await withServer(
      () => startBenchServer(serverEnv({ dataDir })),
      async (server) => {
        rows.push(...(await contentFilter(server, await seed(server, 1), settings, notes)));
      },
    );
  } else if (only === 'embedded') {
    await onEmbedded(async () => {});
    say('PostgreSQL');
    await withServer(
      () => startBenchServer(serverEnv({ databaseUrl: databaseUrl! })),
      async (a) => {
        rows.push(...(await keyVerification(a, await seed(a, 9), 'PostgreSQL', settings, notes)));
      },
    );
    rows.push(...embeddedAgainstPostgres(rows));
  } else if (only === 'webhooks') {
    await withServer(
      () => startBenchServer(serverEnv({ databaseUrl: databaseUrl! })),
      async (a) => {
        await webhookScenarios(a, await seed(a, 9), databaseUrl!);
      },
    );
  } else if (only === 'soak') {
    say('soak: two replicas');
    rows.push(...(await soak(databaseUrl!, replicaSoak, notes, say)));
  } else if (only === 'uploads') {
    say('a submission without files');
    await withServer(
      () => startBenchServer(serverEnv({ dataDir })),
      async (server) => {
        const seeded = await seed(server, 1);
        const now = await submissionsWithoutFiles(server, seeded, 'PGlite', settings);
        const before = writtenRows(REPORT).find((r) => r.scenario === now.scenario && r.engine === 'PGlite');
        rows.push(now);
        if (before) {
          notes.push(
            `Scenario 4 (PGlite): ${Math.round(now.requestsPerSecond!)} req/s now (p50 ${now.p50Ms} ms); ` +
              `the run this page was written by gave ${before.cells[2]} req/s (p50 ${before.cells[3]} ms), under its own load.`,
          );
        }
      },
    );
    rows.push(...(await uploads(uploadSettings, notes, say)));
  } else {
    const seeded = await onEmbedded(async (server, seeded) => {
      say('export');
      rows.push(...(await exportScenario(server, seeded, 'PGlite', notes)));
      say('password reset timing');
      rows.push(...(await passwordResetTiming(server, seeded, 'PGlite', notes)));
      say('where the time goes');
      await whereTimeGoes(server, null, seeded, 'PGlite', settings, notes);
      say('content filter');
      rows.push(...(await contentFilter(server, seeded, settings, notes)));
      return seeded;
    });
    say('start-up');
    rows.push(...(await startup(dataDir, seeded)));
    rows.push(...(await uploads(uploadSettings, notes, say)));

    if (databaseUrl) {
      say('PostgreSQL');
      await withServer(
        () => startBenchServer(serverEnv({ databaseUrl })),
        async (a) => {
          const seeded = await seed(a, 9);
          rows.push(...(await keyVerification(a, seeded, 'PostgreSQL', settings, notes)));
          await lowerBoundAndProfile(a, seeded, databaseUrl);
          say('memory');
          rows.push(...(await memory(a, seeded, 'PostgreSQL', settings, notes)));
          say('export');
          rows.push(...(await exportScenario(a, seeded, 'PostgreSQL', notes)));
          say('password reset timing');
          rows.push(...(await passwordResetTiming(a, seeded, 'PostgreSQL', notes)));
          await webhookScenarios(a, seeded, databaseUrl, async (b) => {
            say('revocation propagation');
            rows.push(await revocationPropagation(a, b, seeded, notes));
          });
        },
      );
      // Last: it starts replicas of its own, and restarts PostgreSQL.
      say('soak: two replicas');
      rows.push(...(await soak(databaseUrl, replicaSoak, notes, say)));
    } else {
      notes.push('Scenarios 5, 8 to 12, 15, 16 and 19 to 21 need PostgreSQL: set BENCH_DATABASE_URL to run them (and scenarios 1–4 and 6 there too).');
    }
    rows.push(...embeddedAgainstPostgres(rows));
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

/** Scenario 9: lfk's form read (scenario 1) and keyed submissions (scenario 4) on its embedded database against its own figures on PostgreSQL. */
function embeddedAgainstPostgres(measured: Row[]): Row[] {
  const jobs = [
    { name: 'form read', scenario: '1 · GET /v1/forms/{id}, valid key', number: 1 },
    { name: 'keyed submission, notifying', scenario: NOTIFYING_SUBMISSIONS, number: 4 },
    { name: 'keyed submission, quiet form', scenario: QUIET_SUBMISSIONS, number: 4 },
  ];
  return jobs.flatMap(({ name, scenario, number }) => {
    const rate = (engine: string) => measured.find((r) => r.engine === engine && r.scenario === scenario)?.requestsPerSecond;
    const embedded = rate('PGlite');
    const postgres = rate('PostgreSQL');
    if (embedded === undefined || postgres === undefined) return [];
    const ratio = embedded / postgres;
    return [{ scenario: `9 · ${name}, PGlite ÷ PostgreSQL (scenario ${number})`, engine: 'both', ratio, target: '≥ 0.50', met: ratio >= 0.5 }];
  });
}

const command = `${only ? `BENCH_ONLY=${only} ` : databaseUrl ? 'BENCH_DATABASE_URL=postgres://… ' : ''}npm run bench`;
process.stdout.write(`\n${table(rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
(only ? mergeReport : writeReport)(REPORT, {
  rows,
  notes,
  command,
  settings:
    `${settings.durationS} s per measured run, ${settings.rounds} rounds per comparison, ${settings.connections} connections ` +
    '(BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS); ' +
    `${uploadSettings.files} uploads a run, ${uploadSettings.rounds} turns (BENCH_UPLOADS, BENCH_UPLOAD_ROUNDS); ` +
    `${boundUploadSettings.uploads} uploads of 1 MiB a batch (BENCH_BOUND_UPLOADS)`,
  startedAt,
  load: [loadAtStart, loadavg()[0]!],
});
say('wrote docs/benchmarks.md');
