import { generateApiKey } from '@lfk/api';
import { compare, drive, type LoadSettings, percentile, timedRequest } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import { type Seed, withBadChecksum } from '../seed.ts';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Scenarios 1 to 4: what verifying a key costs, for good keys, bad keys and a stored write. */
export async function keyVerification(
  server: BenchServer,
  seeded: Seed,
  engine: string,
  settings: LoadSettings,
  notes: string[],
): Promise<Row[]> {
  const rows: Row[] = [];
  const key = seeded.keys[0]!;
  server.send({ type: 'principal', keyId: key.id, workspaceId: seeded.workspaceId });
  const formPath = `/v1/forms/${seeded.formId}`;

  // 1. A valid key, against the same read without authentication.
  const read = await compare(
    server.url,
    { path: formPath, headers: bearer(key.key), expect: 200 },
    { path: `/bench/forms/${seeded.formId}`, expect: 200 },
    settings,
  );
  rows.push({ scenario: '1 · baseline: form read, authentication bypassed', engine, ...read.baseline });
  rows.push({
    scenario: '1 · GET /v1/forms/{id}, valid key',
    engine,
    ...read.subject,
    ratio: read.subject.requestsPerSecond / read.baseline.requestsPerSecond,
    target: '≥ 0.90',
    met: read.subject.requestsPerSecond / read.baseline.requestsPerSecond >= 0.9,
  });

  // 2. A key with a bad checksum, against a route that only answers the same 401.
  const malformed = bearer(withBadChecksum(key.key));
  const before = await server.queries();
  const refused = await compare(
    server.url,
    { path: formPath, headers: malformed, expect: 401 },
    { path: '/bench/unauthorized', headers: malformed, expect: 401 },
    settings,
  );
  const queries = (await server.queries()) - before;
  const ratio = refused.subject.requestsPerSecond / refused.baseline.requestsPerSecond;
  rows.push({ scenario: '2 · baseline: bare 401 route', engine, ...refused.baseline });
  rows.push({
    scenario: '2 · malformed key (bad checksum)',
    engine,
    ...refused.subject,
    ratio,
    target: '≥ 0.95, 0 queries',
    met: ratio >= 0.95 && queries === 0,
  });
  notes.push(
    `Scenario 2 (${engine}): the server sent ${queries} database statements while answering ` +
      `${refused.subject.total + refused.baseline.total} requests with malformed keys (subject and baseline runs, warm-ups aside).`,
  );

  // 3. An unknown key against a revoked one.
  const unknown = generateApiKey().key;
  const bad = await compare(
    server.url,
    { path: formPath, headers: bearer(seeded.revokedKey), expect: 401 },
    { path: formPath, headers: bearer(unknown), expect: 401 },
    settings,
  );
  const badRatio = bad.subject.requestsPerSecond / bad.baseline.requestsPerSecond;
  rows.push({ scenario: '3 · unknown well-formed key', engine, ...bad.baseline });
  rows.push({
    scenario: '3 · revoked key (vs unknown)',
    engine,
    ...bad.subject,
    ratio: badRatio,
    target: 'same distribution',
    met: Math.abs(1 - badRatio) <= 0.05 && bad.subject.p50Ms === bad.baseline.p50Ms,
  });
  notes.push(await timingProbe(server.url, formPath, unknown, seeded.revokedKey, engine));

  // 4. Server-side submissions with a key: each one is validated and stored.
  const submit = await drive(
    server.url,
    {
      method: 'POST',
      path: `/v1/forms/${seeded.apiKeyFormId}/submissions`,
      headers: bearer(key.key),
      body: JSON.stringify({ email: 'buyer@example.org', message: 'one more order' }),
      expect: 201,
    },
    settings,
  );
  rows.push({ scenario: '4 · POST submissions, api_key form, key', engine, ...submit });
  return rows;
}

/**
 * autocannon's whole milliseconds cannot tell sub-millisecond differences apart: this probe sends
 * the two keys alternately, one request at a time, and times each to the microsecond.
 */
async function timingProbe(url: string, path: string, unknown: string, revoked: string, engine: string): Promise<string> {
  const times: Record<'unknown' | 'revoked', number[]> = { unknown: [], revoked: [] };
  for (let i = 0; i < 4000; i++) {
    const which = i % 2 === 0 ? 'unknown' : 'revoked';
    const { status, ms } = await timedRequest(`${url}${path}`, { headers: bearer(which === 'unknown' ? unknown : revoked) });
    if (status !== 401) throw new Error(`the ${which} key was answered ${status}`);
    if (i >= 400) times[which].push(ms);
  }
  const summary = (values: number[]) => {
    const sorted = values.sort((a, b) => a - b);
    return `p50 ${(percentile(sorted, 50) * 1000).toFixed(0)} µs, p90 ${(percentile(sorted, 90) * 1000).toFixed(0)} µs, p99 ${(percentile(sorted, 99) * 1000).toFixed(0)} µs`;
  };
  return (
    `Scenario 3 (${engine}), one request at a time, alternating, 1800 of each after 200 of each to warm up: ` +
    `unknown key ${summary(times.unknown)}; revoked key ${summary(times.revoked)}.`
  );
}
