import { readFileSync } from 'node:fs';
import { type Breakdown, breakdown, type CpuProfile } from './cpu-profile.ts';
import { type BenchServer, postgresCpuClock } from './processes.ts';

/** What one profiled load cost a server, per request. */
export interface Profiled {
  summary: string;
  requestsPerSecond: number;
  requests: number;
  /** The server's CPU from /proc, all its threads. */
  cpuMicros: number;
  /** Statements sent, for a server that counts them (lfk's; the bounds send one a request by their code). */
  statements: number | null;
  /** PostgreSQL's CPU, on PostgreSQL. */
  databaseMicros: number | null;
  found: Breakdown;
}

/**
 * Runs `work` (a load; it answers how many requests it made) against `server` with V8's CPU
 * profiler on, the profile written to `path`, and says where the main thread's time went.
 */
export async function profiled(
  server: BenchServer,
  path: string,
  options: { countsStatements: boolean; onPostgres: boolean },
  work: () => Promise<{ summary: string; requestsPerSecond: number; requests: number }>,
): Promise<Profiled> {
  const statementsBefore = options.countsStatements ? await server.queries() : 0;
  const cpuBefore = server.cpuSeconds();
  const database = options.onPostgres ? postgresCpuClock() : null;
  const done = await server.profile(path, work);
  const databaseSeconds = database?.() ?? null;
  const cpuSeconds = server.cpuSeconds() - cpuBefore;
  const statements = options.countsStatements ? ((await server.queries()) - statementsBefore) / done.requests : null;
  return {
    ...done,
    cpuMicros: (cpuSeconds * 1e6) / done.requests,
    statements,
    databaseMicros: databaseSeconds === null ? null : (databaseSeconds * 1e6) / done.requests,
    found: breakdown(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, done.requests),
  };
}
