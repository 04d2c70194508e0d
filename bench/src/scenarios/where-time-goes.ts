import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drive, type LoadSettings } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import { type Profiled, profiled } from '../profiling.ts';
import type { Seed } from '../seed.ts';
import { scenario8Cases } from './lower-bound.ts';

/**
 * Scenario 18: where each of scenario 8's loads spends its time, as notes. Each server's CPU is
 * profiled while the load runs (after a warm-up): lfk's, and on PostgreSQL the hand-written lower
 * bound's beside it, stage by stage; with the server's CPU from /proc, the statements lfk sends
 * and the database's CPU.
 */
export async function whereTimeGoes(
  lfk: BenchServer,
  bound: BenchServer | null,
  seeded: Seed,
  engine: string,
  settings: LoadSettings,
  notes: string[],
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lfk-bench-profile-'));
  const onPostgres = engine === 'PostgreSQL';
  const profile = async (server: BenchServer, load: Parameters<typeof drive>[1], countsStatements: boolean) => {
    await drive(server.url, load, { ...settings, durationS: 1 });
    return profiled(server, join(dir, 'profile.cpuprofile'), { countsStatements, onPostgres }, async () => {
      const result = await drive(server.url, load, settings);
      return { summary: '', requestsPerSecond: result.requestsPerSecond, requests: result.total };
    });
  };
  try {
    for (const c of scenario8Cases(seeded)) {
      const ours = await profile(lfk, c.load, true);
      const theirs = bound ? await profile(bound, c.load, false) : null;
      notes.push(
        `Scenario 18 (${engine}, ${c.name}): ${described('lfk', ours)}${theirs ? `; ${described('the lower bound', theirs)}` : ''}. ${stages(ours, theirs)}.`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function described(who: string, run: Profiled): string {
  return (
    `${who} ${Math.round(run.requestsPerSecond)} req/s under the profiler, CPU ${run.cpuMicros.toFixed(0)} µs per request (/proc)` +
    (run.statements === null ? '' : `, ${run.statements.toFixed(2)} statements`) +
    (run.databaseMicros === null ? '' : `, PostgreSQL CPU ${run.databaseMicros.toFixed(0)} µs`)
  );
}

/** The main thread's busy time by stage, lfk's then (when there is one) the bound's, in lfk's order. */
function stages(ours: Profiled, theirs: Profiled | null): string {
  const oursByName = new Map(ours.found.byStage);
  const boundByName = new Map(theirs?.found.byStage ?? []);
  const names = [...new Set([...oursByName.keys(), ...boundByName.keys()])];
  const who = theirs ? ', lfk / the lower bound' : '';
  const busy = `The main thread's busy time (sampled), µs per request${who}: ${cell(ours.found.busyMicros, theirs?.found.busyMicros)}`;
  const byStage = names.map((name) => `${name} ${cell(oursByName.get(name) ?? 0, theirs ? (boundByName.get(name) ?? 0) : undefined)}`);
  return `${busy}, by stage: ${byStage.join('; ')}`;
}

const cell = (ours: number, theirs: number | undefined) => (theirs === undefined ? ours.toFixed(0) : `${ours.toFixed(0)} / ${theirs.toFixed(0)}`);
