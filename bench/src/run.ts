/**
 * `npm run bench`: every scenario of docs/benchmarks.md on the embedded database, and on PostgreSQL
 * too when BENCH_DATABASE_URL is set. Prints the table and writes docs/benchmarks.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadSettings } from './load.ts';
import { type BenchServer, REPO, serverEnv, startBenchServer } from './processes.ts';
import { type Row, table, writeReport } from './report.ts';
import { keyVerification } from './scenarios/key-verification.ts';
import { memory } from './scenarios/memory.ts';
import { revocationPropagation } from './scenarios/revocation-propagation.ts';
import { startup } from './scenarios/startup.ts';
import { seed } from './seed.ts';

const settings: LoadSettings = {
  durationS: Number(process.env.BENCH_DURATION ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  rounds: Number(process.env.BENCH_ROUNDS ?? 4),
};
const databaseUrl = process.env.BENCH_DATABASE_URL || undefined;
const startedAt = new Date();
const rows: Row[] = [];
const notes: string[] = [];
const say = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function withServer<T>(env: Record<string, string>, body: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await startBenchServer(env);
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'lfk-bench-'));
try {
  say(`embedded PGlite in ${dataDir}`);
  const seeded = await withServer(serverEnv({ dataDir }), async (server) => {
    const seeded = await seed(server.url, 10);
    rows.push(...(await keyVerification(server, seeded, 'PGlite', settings, notes)));
    say('memory');
    rows.push(await memory(server, seeded, 'PGlite', settings, notes));
    return seeded;
  });
  say('start-up');
  rows.push(...(await startup(dataDir, seeded)));

  if (databaseUrl) {
    say('PostgreSQL');
    await withServer(serverEnv({ databaseUrl }), async (a) => {
      const seeded = await seed(a.url, 9);
      rows.push(...(await keyVerification(a, seeded, 'PostgreSQL', settings, notes)));
      say('memory');
      rows.push(await memory(a, seeded, 'PostgreSQL', settings, notes));
      say('revocation propagation');
      await withServer(serverEnv({ databaseUrl }), async (b) => {
        rows.push(await revocationPropagation(a, b, seeded, notes));
      });
    });
  } else {
    notes.push('Scenario 5 needs PostgreSQL: set BENCH_DATABASE_URL to run it (and scenarios 1–4 and 6 there too).');
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const command = `${databaseUrl ? 'BENCH_DATABASE_URL=postgres://… ' : ''}npm run bench`;
process.stdout.write(`\n${table(rows)}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`);
writeReport(join(REPO, 'docs/benchmarks.md'), {
  rows,
  notes,
  command,
  settings:
    `${settings.durationS} s per measured run, ${settings.rounds} rounds per comparison, ${settings.connections} connections ` +
    '(BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS)',
  startedAt,
});
say('wrote docs/benchmarks.md');
