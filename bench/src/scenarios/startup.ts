import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, percentile, timedRequest } from '../load.ts';
import { freePort, REPO, run, serverEnv, spawnMainServer, stopProcess } from '../processes.ts';
import type { Row } from '../report.ts';
import { PASSWORD, type Seed } from '../seed.ts';

const RUNS = 10;
const LFK = join(REPO, 'apps/cli/bin/lfk.js');

/** p50 is the median of the runs, p99 the slowest; the target is on the median. */
function row(scenario: string, millis: number[], targetMs: number): Row {
  const sorted = [...millis].sort((a, b) => a - b);
  const p50Ms = median(sorted);
  return { scenario, engine: 'PGlite', p50Ms, p99Ms: percentile(sorted, 100), target: `median ≤ ${targetMs} ms`, met: p50Ms <= targetMs };
}

async function whenReady(url: string, deadlineMs: number): Promise<void> {
  while (performance.now() < deadlineMs) {
    try {
      if ((await timedRequest(url)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${url} was not ready in time`);
}

/** Starts `npm start`'s command on `dataDir` and resolves once `/readyz` answers 200, with the time it took. */
async function startMain(dataDir: string): Promise<{ ms: number; url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnMainServer({ ...serverEnv({ dataDir }), PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  await whenReady(`${url}/readyz`, started + 60_000);
  return { ms: performance.now() - started, url, stop: () => stopProcess(child) };
}

/** Scenario 7, on the embedded database the benchmark seeded (its server must be stopped). */
export async function startup(dataDir: string, seeded: Seed): Promise<Row[]> {
  const ready: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const server = await startMain(dataDir);
    ready.push(server.ms);
    await server.stop();
  }

  const home = mkdtempSync(join(tmpdir(), 'lfk-bench-home-'));
  const cliEnv = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };
  const timed = async (args: string[], env: Record<string, string>) => {
    const started = performance.now();
    const result = await run([LFK, ...args], env);
    if (result.code !== 0) throw new Error(`lfk ${args.join(' ')} failed: ${result.stderr}`);
    return performance.now() - started;
  };

  const help: number[] = [];
  for (let i = 0; i < RUNS; i++) help.push(await timed(['--help'], cliEnv));

  const server = await startMain(dataDir);
  const list: number[] = [];
  try {
    const env = { ...cliEnv, LFK_BASE_URL: server.url };
    const login = await run([LFK, 'login', '--email', seeded.email, '--password-stdin'], env, `${PASSWORD}\n`);
    if (login.code !== 0) throw new Error(`lfk login failed: ${login.stderr}`);
    for (let i = 0; i < RUNS; i++) list.push(await timed(['keys', 'list'], env));
  } finally {
    await server.stop();
  }
  return [row('7 · start-up to /readyz, existing data', ready, 1500), row('7 · lfk --help', help, 80), row('7 · lfk keys list', list, 120)];
}
