import { kolmogorovSmirnov, median, percentile, timedRequest } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import type { Seed } from '../seed.ts';

/**
 * Scenario 14: does `POST /v1/auth/password-resets` take as long for an address without an
 * account as for one with? Requests alternate between the two, one at a time on one connection,
 * so both see the same machine. Met when a two-sample Kolmogorov–Smirnov test on the two sets of
 * latencies cannot tell them apart at 1 %, as scenario 3 asks of unknown and revoked keys.
 */
export async function passwordResetTiming(server: BenchServer, seeded: Seed, engine: string, notes: string[], rounds = 400): Promise<Row[]> {
  const url = `${server.url}/v1/auth/password-resets`;
  const ask = async (email: string) => {
    const res = await timedRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    if (res.status !== 202) throw new Error(`password reset answered ${res.status}: ${res.body}`);
    return res.ms;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  const WARM_UP = 20;
  for (let i = 0; i < WARM_UP + rounds; i++) {
    // The unknown addresses differ each time, so nothing about one can be remembered for the next;
    // which of the two goes first alternates.
    const nobody = `nobody-${i}@example.com`;
    let k: number;
    let u: number;
    if (i % 2 === 0) {
      k = await ask(seeded.email);
      u = await ask(nobody);
    } else {
      u = await ask(nobody);
      k = await ask(seeded.email);
    }
    if (i >= WARM_UP) {
      known.push(k);
      unknown.push(u);
    }
  }
  const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
  const [k, u] = [sorted(known), sorted(unknown)];
  const ratio = median(u) / median(k);
  const ks = kolmogorovSmirnov(k, u);
  const apart = ks.statistic > ks.critical;
  notes.push(
    `Scenario 14 (${engine}): ${known.length} reset requests for an account's address and ${unknown.length} for addresses without one, ` +
      `alternating: median ${median(k).toFixed(2)} ms and ${median(u).toFixed(2)} ms, ` +
      `p99 ${percentile(k, 99).toFixed(2)} ms and ${percentile(u, 99).toFixed(2)} ms. Two-sample Kolmogorov–Smirnov statistic ` +
      `${ks.statistic.toFixed(3)}, against ${ks.critical.toFixed(3)} at 1 %: ${apart ? 'told apart' : 'not told apart'}.`,
  );
  return [
    { scenario: "14 · password reset request, an account's address", engine, p50Ms: median(k), p99Ms: percentile(k, 99) },
    { scenario: '14 · password reset request, no account', engine, p50Ms: median(u), p99Ms: percentile(u, 99) },
    { scenario: '14 · median, no account ÷ account', engine, ratio, target: 'not told apart (KS, 1 %)', met: !apart },
  ];
}
