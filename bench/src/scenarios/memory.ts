import { drive, type LoadSettings } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import type { Seed } from '../seed.ts';

const MIB = 2 ** 20;

/** Scenario 6: RSS after a warm-up, then after 200 000 more requests spread over every active key. */
export async function memory(
  server: BenchServer,
  seeded: Seed,
  engine: string,
  settings: LoadSettings,
  notes: string[],
  requests = 200_000,
): Promise<Row> {
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
  return {
    scenario: `6 · RSS growth over ${requests / 1000}k key requests`,
    engine,
    ...result,
    ratio: after / before,
    target: '≤ 1.10',
    met: after / before <= 1.1,
  };
}
