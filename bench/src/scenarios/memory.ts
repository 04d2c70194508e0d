import { drive, type LoadSettings } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import type { Seed } from '../seed.ts';

const MIB = 2 ** 20;

/**
 * Scenario 6: RSS after a warm-up, then after 200 000 more requests spread over every active key;
 * on the embedded database also RSS once the load is over and its peak, against the small-box targets.
 */
export async function memory(
  server: BenchServer,
  seeded: Seed,
  engine: string,
  settings: LoadSettings,
  notes: string[],
  requests = 200_000,
): Promise<Row[]> {
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
  if (engine !== 'PGlite') return [growth];
  // Steady: what the process holds once the load scenarios are over and it has been idle a moment.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const steady = server.rssBytes() / MIB;
  const peak = server.peakRssBytes() / MIB;
  notes.push(`Scenario 6 (PGlite): ${steady.toFixed(0)} MiB resident 2 s after the load scenarios, ${peak.toFixed(0)} MiB at most since start.`);
  return [
    growth,
    { scenario: '6 · RSS (MiB) after the load scenarios', engine, ratio: steady, target: '≤ 300', met: steady <= 300 },
    { scenario: '6 · peak RSS (MiB) since start', engine, ratio: peak, target: '≤ 450', met: peak <= 450 },
  ];
}
