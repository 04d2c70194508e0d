import { createLfkClient } from '@lfk/client';
import { percentile, timedRequest } from '../load.ts';
import type { BenchServer } from '../processes.ts';
import type { Row } from '../report.ts';
import { PASSWORD, type Seed } from '../seed.ts';

const ROUNDS = 50;

/** The statements B sends to its database while answering one request for the probe. */
async function statementsFor(b: BenchServer, probe: string, headers: Record<string, string>): Promise<number> {
  const before = await b.queries();
  const { status } = await timedRequest(probe, { headers });
  if (status !== 200) throw new Error(`B answered ${status} for a fresh key`);
  return (await b.queries()) - before;
}

/**
 * Scenario 5: revoke a key through server A while polling server B, which has the key in its
 * cache, until B answers 401. The time runs from sending the revocation to B's first 401.
 */
export async function revocationPropagation(a: BenchServer, b: BenchServer, seeded: Seed, notes: string[]): Promise<Row> {
  const owner = createLfkClient({ baseUrl: a.url, sessionToken: seeded.sessionToken });
  // Revoking a key needs a recent sign-in, and the session was made when the run began, long before.
  await owner.auth.reauthenticate.mutate({ password: PASSWORD });
  const probe = `${b.url}/v1/forms/${seeded.formId}`;
  const delays: number[] = [];
  let polls = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const created = await owner.apiKeys.create.mutate({ workspace_id: seeded.workspaceId, name: 'bench revocation' });
    const headers = { authorization: `Bearer ${created.key}` };
    // The first request puts the key in B's cache; a later one is answered from it (one statement
    // fewer). The previous round's revocation may still be reaching B as the first is answered: B
    // then rightly declines to cache what it read, and the next request caches it instead.
    const first = await statementsFor(b, probe, headers);
    let cached = false;
    for (let attempt = 0; attempt < 5 && !cached; attempt++) cached = (await statementsFor(b, probe, headers)) < first;
    if (!cached) throw new Error(`B did not serve the key from its cache in 5 requests after the first (${first} statements)`);
    const sent = performance.now();
    const revoked = owner.apiKeys.revoke.mutate({ workspace_id: seeded.workspaceId, key_id: created.id });
    let refusedAt: number | undefined;
    while (refusedAt === undefined) {
      const { status } = await timedRequest(probe, { headers });
      polls++;
      if (status === 401) refusedAt = performance.now();
      else if (status !== 200) throw new Error(`B answered ${status} while the key was being revoked`);
      if (performance.now() - sent > 10_000) throw new Error('B still accepted a revoked key after 10 s');
    }
    await revoked;
    delays.push(refusedAt - sent);
  }
  const sorted = delays.sort((x, y) => x - y);
  notes.push(
    `Scenario 5: ${ROUNDS} revocations, B polled ${polls} times in all; delays from ${sorted[0]!.toFixed(1)} ms ` + `to ${sorted.at(-1)!.toFixed(1)} ms.`,
  );
  const p99 = percentile(sorted, 99);
  return {
    scenario: '5 · revocation through A seen by B',
    engine: 'PostgreSQL',
    p50Ms: percentile(sorted, 50),
    p99Ms: p99,
    errors: 0,
    target: 'p99 ≤ 100 ms',
    met: p99 <= 100,
  };
}
