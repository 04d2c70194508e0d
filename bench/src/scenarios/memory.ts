import { setTimeout as sleep } from 'node:timers/promises';
import { drive, type LoadSettings } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import type { Seed } from '../seed.ts';

const MIB = 2 ** 20;
const STEADY_AFTER_MS = 15_000;

/** The most RSS may reach, and hold once idle, by engine: the embedded one is meant for a small box. */
const TARGETS: Record<string, { peak: number; steady: number }> = { PGlite: { peak: 450, steady: 300 }, PostgreSQL: { peak: 300, steady: 300 } };

/**
 * Scenario 6: RSS after a warm-up, then after 200 000 more requests spread over every active key;
 * then RSS once the load is over (just after, and steady) and its peak since start (the load
 * scenarios run before this one included), against the targets.
 */
export async function memory(server: BenchServer, seeded: Seed, engine: string, settings: LoadSettings, notes: string[], requests = 200_000): Promise<Row[]> {
  const load = {
    path: `/v1/forms/${seeded.formId}`,
    rotate: seeded.keys.map((k) => ({ headers: { authorization: `Bearer ${k.key}` } })),
    expect: 200,
  };
  await drive(server.url, load, settings, 20_000);
  const before = server.rssBytes();
  const result = await drive(server.url, load, settings, requests);
  const after = server.rssBytes();
  notes.push(
    `Scenario 6 (${engine}): RSS ${(before / MIB).toFixed(1)} MiB after 20 000 warm-up requests, ` +
      `${(after / MIB).toFixed(1)} MiB after ${result.total} more over ${seeded.keys.length} keys.`,
  );
  const growth: Row = {
    scenario: `6 · RSS growth over ${requests / 1000}k key requests`,
    engine,
    ...result,
    ratio: after / before,
    target: '≤ 1.10',
    met: after / before <= 1.1,
  };
  const target = TARGETS[engine]!;
  // Right after the load, V8 still holds the heap the load grew; once the process has been idle for
  // ~8 s, V8's memory reducer gives most of it back. Steady is what an idle server holds: 15 s.
  await sleep(2000);
  const justAfter = server.rssBytes() / MIB;
  await sleep(STEADY_AFTER_MS - 2000);
  const steady = server.rssBytes() / MIB;
  const peak = server.peakRssBytes() / MIB;
  notes.push(
    `Scenario 6 (${engine}): ${justAfter.toFixed(0)} MiB resident 2 s after the load scenarios, ${steady.toFixed(0)} MiB ` +
      `${STEADY_AFTER_MS / 1000} s after (steady), ${peak.toFixed(0)} MiB at most since start.`,
  );
  return [
    growth,
    { scenario: '6 · RSS (MiB) 2 s after the load scenarios', engine, ratio: justAfter },
    {
      scenario: `6 · RSS (MiB) steady, ${STEADY_AFTER_MS / 1000} s after the load`,
      engine,
      ratio: steady,
      target: `≤ ${target.steady}`,
      met: steady <= target.steady,
    },
    { scenario: '6 · peak RSS (MiB) since start', engine, ratio: peak, target: `≤ ${target.peak}`, met: peak <= target.peak },
  ];
}
