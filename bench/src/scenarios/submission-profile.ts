import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { breakdown, type CpuProfile } from '../cpu-profile.ts';
import { drive, type LoadSettings } from '../load.ts';
import { type BenchServer, postgresCpuClock } from '../processes.ts';
import type { Seed } from '../seed.ts';
import { keyedSubmission } from './lower-bound.ts';

/**
 * Scenario 18: where a keyed submission's time goes, as a note. The server's CPU is profiled while
 * scenario 8's keyed submissions run (after a warm-up): its busy time per request by stage, the
 * statements it sends, its CPU from /proc and, on PostgreSQL, the database's.
 */
export async function submissionProfile(server: BenchServer, seeded: Seed, engine: string, settings: LoadSettings, notes: string[]): Promise<void> {
  const load = keyedSubmission(seeded);
  await drive(server.url, load, { ...settings, durationS: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'lfk-bench-profile-'));
  try {
    const path = join(dir, 'submission.cpuprofile');
    const statementsBefore = await server.queries();
    const cpuBefore = server.cpuSeconds();
    const database = engine === 'PostgreSQL' ? postgresCpuClock() : null;
    const result = await server.profile(path, () => drive(server.url, load, settings));
    const databaseMicros = database ? (database() * 1e6) / result.total : null;
    const cpuMicros = ((server.cpuSeconds() - cpuBefore) * 1e6) / result.total;
    const statements = ((await server.queries()) - statementsBefore) / result.total;
    const found = breakdown(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, result.total);
    const stages = found.byStage.map(([stage, micros]) => `${stage} ${micros.toFixed(0)} µs`).join('; ');
    notes.push(
      `Scenario 18 (${engine}): where a keyed submission's time goes (scenario 8's load, ${Math.round(result.requestsPerSecond)} req/s under the profiler): ` +
        `server CPU ${cpuMicros.toFixed(0)} µs per request (/proc), ${statements.toFixed(2)} statements per request` +
        (databaseMicros === null ? '' : `, PostgreSQL CPU ${databaseMicros.toFixed(0)} µs per request`) +
        `. The main thread's busy time, ${found.busyMicros.toFixed(0)} µs per request (sampled), by stage: ${stages}.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
