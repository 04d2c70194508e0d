import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export interface LoadSettings {
  /** Seconds per measured run. */
  durationS: number;
  connections: number;
  /** Turns of baseline and subject in a comparison. */
  rounds: number;
}

export interface Load {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Several requests sent in turn on every connection (e.g. one per key), instead of `path`. */
  rotate?: { headers: Record<string, string> }[];
  /** The status every answer must have; any other answer counts as an error. */
  expect: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  total: number;
}

/** Drives `url` with autocannon for `durationS`, or for exactly `amount` requests. */
export async function drive(url: string, load: Load, settings: LoadSettings, amount?: number): Promise<LoadResult> {
  const headers = { ...(load.body ? { 'content-type': 'application/json' } : {}), ...load.headers };
  const result = await autocannon({
    url: `${url}${load.path}`,
    method: load.method ?? 'GET',
    headers,
    ...(load.body ? { body: load.body } : {}),
    ...(load.rotate ? { requests: load.rotate.map((r) => ({ headers: { ...headers, ...r.headers } })) } : {}),
    connections: settings.connections,
    ...(amount ? { amount } : { duration: settings.durationS }),
  });
  const answered = Object.entries(result.statusCodeStats ?? {}).reduce((sum, [, s]) => sum + (s.count ?? 0), 0);
  const expected = (result.statusCodeStats as Record<string, { count: number }> | undefined)?.[load.expect]?.count ?? 0;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: answered - expected + result.errors,
    total: answered,
  };
}

/** The mean of several runs of the same load. */
export function meanOf(runs: LoadResult[]): LoadResult {
  const mean = (pick: (r: LoadResult) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50Ms: mean((r) => r.p50Ms),
    p99Ms: mean((r) => r.p99Ms),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    total: runs.reduce((sum, r) => sum + r.total, 0),
  };
}

export interface Comparison {
  subject: LoadResult;
  baseline: LoadResult;
  /** The median over the rounds of subject req/s ÷ baseline req/s. */
  ratio: number;
  /** The lowest and highest of those per-round ratios: how noisy the comparison was. */
  ratioRange: [number, number];
  /** The server's CPU time per answered request (user + system), in microseconds. */
  cpuMicros: { subject: number; baseline: number };
  /** The database's, when both sides have a database clock. */
  databaseCpuMicros?: { subject: number; baseline: number };
}

/** One side of a comparison: a load, the server it goes to, and that server's CPU clock (seconds). */
export interface Side {
  url: string;
  load: Load;
  cpuSeconds: () => number;
  /** Starts a CPU clock of the database the server uses (reading it gives seconds), when it runs in processes of its own. */
  databaseCpuClock?: () => () => number;
}

/**
 * A subject and its baseline, measured in turns (baseline, subject, …) after a warm-up of both, so
 * drift on the machine falls on both alike. The two may be one server or two. Each side's CPU
 * clock is its server's: unlike req/s, CPU per request does not depend on whether the load
 * generator, which shares the machine, kept up.
 */
export async function compare(subject: Side, baseline: Side, settings: LoadSettings): Promise<Comparison> {
  const warmUp = { ...settings, durationS: 1 };
  await drive(baseline.url, baseline.load, warmUp);
  await drive(subject.url, subject.load, warmUp);
  const runs = { baseline: [] as LoadResult[], subject: [] as LoadResult[] };
  const cpu = { baseline: 0, subject: 0 };
  const databaseCpu = { baseline: 0, subject: 0 };
  const measure = async (which: 'baseline' | 'subject') => {
    const side = which === 'baseline' ? baseline : subject;
    const before = side.cpuSeconds();
    const databaseClock = side.databaseCpuClock?.();
    runs[which].push(await drive(side.url, side.load, settings));
    cpu[which] += side.cpuSeconds() - before;
    databaseCpu[which] += databaseClock?.() ?? 0;
  };
  for (let round = 0; round < settings.rounds; round++) {
    await measure('baseline');
    await measure('subject');
  }
  const ratios = runs.subject.map((s, i) => s.requestsPerSecond / runs.baseline[i]!.requestsPerSecond);
  const perRequest = (which: 'baseline' | 'subject', clock = cpu) => (clock[which] * 1e6) / runs[which].reduce((sum, r) => sum + r.total, 0);
  return {
    subject: meanOf(runs.subject),
    baseline: meanOf(runs.baseline),
    ratio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    cpuMicros: { subject: perRequest('subject'), baseline: perRequest('baseline') },
    ...(subject.databaseCpuClock && baseline.databaseCpuClock
      ? { databaseCpuMicros: { subject: perRequest('subject', databaseCpu), baseline: perRequest('baseline', databaseCpu) } }
      : {}),
  };
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a kept-alive connection: its status and how long it took, in milliseconds. */
export function timedRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: keepAlive }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started, body }));
    });
    req.once('error', reject);
    req.end(options.body);
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * Two-sample Kolmogorov–Smirnov on sorted samples: the largest gap between their distribution
 * functions, and the gap that would be significant at α = 0.01 (timings that must not tell two
 * cases apart).
 */
export function kolmogorovSmirnov(a: number[], b: number[]): { statistic: number; critical: number } {
  let i = 0;
  let j = 0;
  let statistic = 0;
  while (i < a.length && j < b.length) {
    const x = Math.min(a[i]!, b[j]!);
    while (i < a.length && a[i]! <= x) i++;
    while (j < b.length && b[j]! <= x) j++;
    statistic = Math.max(statistic, Math.abs(i / a.length - j / b.length));
  }
  return { statistic, critical: 1.628 * Math.sqrt((a.length + b.length) / (a.length * b.length)) };
}
