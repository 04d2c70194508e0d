/**
 * Spec §5.6: an unknown key and a revoked one are refused alike, "so a caller cannot tell a wrong
 * key from a revoked one" — in the answer, and in what answering costs (issue 50, item 15 of the
 * review: a revoked key was answered 4 ms faster, because only an unknown key's refusal waited for
 * its count in the database). Never judged by a time: both refusals must send the same statements,
 * the first time (asked of the database) and the next (answered from the cache).
 */
import { generateApiKey } from '@lfk/api';
import { ENGINE } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { countStatements, createKey, expectRefused, PROBE, refusalBody, revokeAndSettle, testClock, useKeysServer } from './fixtures.ts';

const clock = testClock();
// The limit on guesses on, as in production: it is what an unknown key's refusal writes to.
const t = useKeysServer(clock, { LFK_RATE_LIMIT_KEY_FAILURES: '20/1m' });

/** Each statement's shape: its text with the values it was sent left out (they are parameters). */
const shapes = (statements: string[]) => statements.map((sql) => sql.replace(/\s+/g, ' ').trim());

/** The statements one refused request with `key` sends, from `from`, and its answer. */
async function refusal(key: string, from: string) {
  const counted = countStatements(t.server);
  try {
    const res = await t.request('GET', `/v1/forms/${PROBE}`, { token: key, remoteAddress: from });
    expectRefused(res);
    return { statements: shapes(counted.statements), body: refusalBody(res) };
  } finally {
    counted.stop();
  }
}

describe(`an unknown key and a revoked one cost the same to refuse (${ENGINE})`, () => {
  it('the same statements when the database is asked, the same (none) from the cache, the same answer', async () => {
    const owner = await t.signup();
    const revoked = await createKey(t, owner);
    await revokeAndSettle(t, owner, revoked.id);
    const limited = await createKey(t, owner, { allowed_ips: ['192.0.2.1'] });
    const unknown = generateApiKey().key;

    // First use of each: looked up in the database. Each from an address of its own, so no bucket is shared.
    const first = {
      unknown: await refusal(unknown, '10.50.0.1'),
      revoked: await refusal(revoked.key, '10.50.0.2'),
      limited: await refusal(limited.key, '10.50.0.3'),
    };
    expect(first.unknown.statements.length).toBeGreaterThan(0);
    expect(first.revoked.statements).toEqual(first.unknown.statements);
    expect(first.limited.statements).toEqual(first.unknown.statements);
    expect(first.revoked.body).toBe(first.unknown.body);

    // Again: both answered from the key cache, with the same work.
    const again = {
      unknown: await refusal(unknown, '10.50.0.1'),
      revoked: await refusal(revoked.key, '10.50.0.2'),
      limited: await refusal(limited.key, '10.50.0.3'),
    };
    expect(again.revoked.statements).toEqual(again.unknown.statements);
    expect(again.limited.statements).toEqual(again.unknown.statements);
  });

  it("a known key's refusal counts nothing against its address: only keys that match nothing are guesses", async () => {
    const owner = await t.signup();
    const revoked = await createKey(t, owner);
    await revokeAndSettle(t, owner, revoked.id);
    const fresh = await createKey(t, owner);
    // 25 refusals of the revoked key (the limit is 20), each asked of the database as the cache forgets it.
    for (let i = 0; i < 25; i++) {
      t.server.services.apiKeyCache.suspend();
      t.server.services.apiKeyCache.resume();
      expectRefused(await t.request('GET', `/v1/forms/${PROBE}`, { token: revoked.key, remoteAddress: '10.50.1.1' }));
    }
    // The new key from the same address is not held back.
    const res = await t.request('GET', `/v1/forms/${PROBE}`, { token: fresh.key, remoteAddress: '10.50.1.1' });
    expect(res.status, res.body).toBe(404);
  });
});
