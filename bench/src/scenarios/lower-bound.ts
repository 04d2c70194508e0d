import { generateApiKey } from '@lfk/api';
import { type Comparison, compare, type Load, type LoadSettings } from '../load.ts';
import { type BenchServer, postgresCpuClock } from '../processes.ts';
import type { Row } from '../report.ts';
import { BROWSER_ORIGIN, type Seed, withBadChecksum } from '../seed.ts';
import { bearer } from './key-verification.ts';

export interface Case {
  name: string;
  load: Load;
  /** Least lfk req/s ÷ lower-bound req/s. */
  ratio: number;
  /** Most lfk CPU per request ÷ the lower bound's, when the target has one. */
  cpu?: number;
  /** Most PostgreSQL CPU per request with lfk ÷ with the lower bound, when the target has one. */
  databaseCpu?: number;
}

/** A server-side submission to a form that notifies nobody and has no webhook. */
export const keyedSubmission = (seeded: Seed): Load => ({
  method: 'POST',
  path: `/v1/forms/${seeded.quietFormId}/submissions`,
  headers: bearer(seeded.keys[0]!.key),
  body: JSON.stringify({ email: 'buyer@example.org', message: 'one more order' }),
  expect: 201,
});

/** An HTML form post from the browser form's site, its honeypot empty: answered with a redirect. */
export const browserSubmission = (seeded: Seed): Load => ({
  method: 'POST',
  path: `/v1/forms/${seeded.browserFormId}/submissions`,
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'text/html,application/xhtml+xml',
    origin: BROWSER_ORIGIN,
    referer: `${BROWSER_ORIGIN}/newsletter`,
  },
  body: new URLSearchParams({ email: 'reader@example.org', message: 'sign me up', _gotcha: '' }).toString(),
  expect: 303,
});

/** Scenario 8's loads, each with its targets against the lower bound (scenario 18 profiles the same). */
export function scenario8Cases(seeded: Seed): Case[] {
  const key = seeded.keys[0]!.key;
  const formPath = `/v1/forms/${seeded.formId}`;
  return [
    { name: 'GET /v1/forms/{id}, valid key', load: { path: formPath, headers: bearer(key), expect: 200 }, ratio: 0.7, cpu: 1.6 },
    { name: 'malformed key → 401', load: { path: formPath, headers: bearer(withBadChecksum(key)), expect: 401 }, ratio: 0.85 },
    { name: 'unknown key → 401', load: { path: formPath, headers: bearer(generateApiKey().key), expect: 401 }, ratio: 0.85 },
    // Issue 52 asks a keyed submission for 0.85 of the bound (it was 0.60).
    { name: 'POST submissions with a key (JSON)', load: keyedSubmission(seeded), ratio: 0.85, databaseCpu: 1.5 },
    { name: 'POST submissions from a browser (form post → 303)', load: browserSubmission(seeded), ratio: 0.6, databaseCpu: 1.5 },
  ];
}

/**
 * Scenario 8, on PostgreSQL: lfk against the hand-written lower bound (lower-bound/server.ts) on
 * the same database, the same loads sent to each in turns.
 */
export async function lowerBound(lfk: BenchServer, bound: BenchServer, seeded: Seed, settings: LoadSettings, notes: string[]): Promise<Row[]> {
  const cases = scenario8Cases(seeded);
  const rows: Row[] = [];
  for (const c of cases) {
    const side = (server: BenchServer) => ({
      url: server.url,
      load: c.load,
      cpuSeconds: () => server.cpuSeconds(),
      databaseCpuClock: postgresCpuClock,
    });
    const result: Comparison = await compare(side(lfk), side(bound), settings);
    const cpuRatio = result.cpuMicros.subject / result.cpuMicros.baseline;
    const database = result.databaseCpuMicros!;
    const databaseRatio = database.subject / database.baseline;
    rows.push({ scenario: `8 · lower bound: ${c.name}`, engine: 'PostgreSQL', ...result.baseline });
    rows.push({
      scenario: `8 · lfk: ${c.name}`,
      engine: 'PostgreSQL',
      ...result.subject,
      ratio: result.ratio,
      ratioRange: result.ratioRange,
      target: `≥ ${c.ratio.toFixed(2)}${c.cpu ? `, CPU ≤ ${c.cpu}×` : ''}${c.databaseCpu ? `, PostgreSQL CPU ≤ ${c.databaseCpu}×` : ''}`,
      met: result.ratio >= c.ratio && (c.cpu === undefined || cpuRatio <= c.cpu) && (c.databaseCpu === undefined || databaseRatio <= c.databaseCpu),
    });
    notes.push(
      `Scenario 8 (${c.name}): server CPU per request ${result.cpuMicros.subject.toFixed(1)} µs lfk, ` +
        `${result.cpuMicros.baseline.toFixed(1)} µs the lower bound (${cpuRatio.toFixed(2)}×); PostgreSQL CPU per request ` +
        `${database.subject.toFixed(1)} µs with lfk, ${database.baseline.toFixed(1)} µs with the lower bound (${databaseRatio.toFixed(2)}×).`,
    );
  }
  return rows;
}
