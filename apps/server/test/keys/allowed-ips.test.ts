/**
 * "Only from our servers" (issue 28): a key's `allowed_ips`. The server listens on a real dual-stack
 * port and each client connects from a loopback address of its own (127.0.0.x, ::1), so the
 * address checked is the one the socket gives, as in production without a proxy. A request from
 * an address the list does not name gets the 401 an unknown key gets, byte for byte and header for
 * header; it is counted as the key's refused use, never as a guess against the address.
 */
import { generateApiKey } from '@lfk/api';
import { ENGINE, expectError, sendFrom, TEST_DATABASE_URL, until } from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditActions,
  createKey,
  expectAccepted,
  expectRefused,
  getKey,
  PROBE,
  secondReplica,
  testClock,
  updateKey,
  usageToday,
  useKeysServer,
} from './fixtures.ts';

const clock = testClock();
// Refused guesses are limited (3 an hour per address) so the test can show allowlist refusals are not guesses.
const t = useKeysServer(clock, { PORT: '0', HOST: '::', LFK_RATE_LIMIT_KEY_FAILURES: '3/1h' });
let port: number;
beforeAll(async () => {
  port = Number(new URL(await t.server.listen()).port);
});

/** A keyed request from `from`: 404 form_not_found when the key is accepted, 401 when refused. */
const probeFrom = (from: string, key: string) =>
  sendFrom(from, { host: from.includes(':') ? '::1' : '127.0.0.1', port }, 'GET', `/v1/forms/${PROBE}`, { authorization: `Bearer ${key}` });

/** What a refusal looks like to its caller, less what differs on every answer (its request id, the time). */
const asSeen = (res: { headers: Record<string, unknown>; body: string }) => {
  const requestId = String(res.headers['x-request-id']);
  const { 'x-request-id': _id, date: _date, ...headers } = res.headers;
  return { headers, body: res.body.replaceAll(requestId, 'REQ') };
};

const keys = (owner: { token: string; workspaceId: string }) => `/v1/workspaces/${owner.workspaceId}/api-keys`;
const update = (owner: { token: string; workspaceId: string }, keyId: string, body: Record<string, unknown>) => updateKey(t, owner, keyId, body);

describe(`a key's allowed_ips (${ENGINE})`, () => {
  it('answers only from the addresses and ranges it names, IPv4 and IPv6', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { allowed_ips: ['127.0.0.2', '127.0.1.0/24', '::1'] });
    expect(key.json.allowed_ips).toEqual(['127.0.0.2', '127.0.1.0/24', '::1']);

    for (const from of ['::1', '127.0.0.2', '127.0.1.77', '127.0.1.254']) expectAccepted(await probeFrom(from, key.key));
    for (const from of ['127.0.0.1', '127.0.0.3', '127.0.2.1']) expectRefused(await probeFrom(from, key.key));

    // The owner sees both: accepted uses, and refusals from addresses not allowed.
    const today = await usageToday(t, owner, key.id);
    expect(today).toMatchObject({ requests: 4, refused: { address_not_allowed: 3, revoked: 0, expired: 0, rolled: 0, leaked: 0 } });
    const listed = await getKey(t, owner, key.id);
    expect(listed.uses_today).toEqual({ requests: 4, refused: 3 });
    // Where it was last accepted, written as the allowlist writes it (the dual-stack socket said ::ffff:127.0.1.254).
    expect(listed.last_used_ip).toBe('127.0.1.254');
  });

  it('refuses a request from elsewhere with the 401 an unknown key gets: the same bytes, the same headers', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { allowed_ips: ['127.0.0.2'] });
    const from = '127.0.5.1';
    const notAllowed = await probeFrom(from, key.key);
    const unknown = await probeFrom(from, generateApiKey().key);
    expect(notAllowed.status).toBe(401);
    expect(asSeen(notAllowed)).toEqual(asSeen(unknown));
    expect(notAllowed.body).not.toContain('allow');
  });

  it('refusals from an address not allowed are not guesses: they never hold the address back', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { allowed_ips: ['127.0.0.2'] });
    const other = await createKey(t, owner);
    const from = '127.0.6.1';
    // Twice the address's budget of guesses, all refused, none counted against it.
    for (let i = 0; i < 6; i++) expectRefused(await probeFrom(from, key.key));
    expectAccepted(await probeFrom(from, other.key));
    // Keys that match nothing are still guesses: the fourth is held back.
    for (let i = 0; i < 3; i++) expectRefused(await probeFrom(from, generateApiKey().key));
    expectError(await probeFrom(from, generateApiKey().key), 429, 'rate_limited');
  });

  it('an owner changes it, and the next request obeys; clearing it allows any address; each change is audited', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { name: 'deploy', allowed_ips: ['127.0.0.2'] });
    expectAccepted(await probeFrom('127.0.0.2', key.key));
    expectRefused(await probeFrom('127.0.0.3', key.key));

    const moved = await update(owner, key.id, { allowed_ips: ['127.0.0.3', '2001:DB8::1/32'] });
    expect(moved.status, moved.body).toBe(200);
    expect(moved.json.allowed_ips).toEqual(['127.0.0.3', '2001:db8::/32']);
    // The key was cached as allowed from 127.0.0.2: the change is heard at once.
    expectRefused(await probeFrom('127.0.0.2', key.key));
    expectAccepted(await probeFrom('127.0.0.3', key.key));

    const cleared = await update(owner, key.id, { allowed_ips: null });
    expect(cleared.json.allowed_ips).toBeNull();
    for (const from of ['127.0.0.2', '127.0.0.3', '::1']) expectAccepted(await probeFrom(from, key.key));

    const audited = await auditActions(t, owner.workspaceId, 'api_key.updated');
    expect(audited.map((e) => e.data)).toEqual([
      { fields: ['allowed_ips'], allowed_ips: { from: ['127.0.0.2'], to: ['127.0.0.3', '2001:db8::/32'] } },
      { fields: ['allowed_ips'], allowed_ips: { from: ['127.0.0.3', '2001:db8::/32'], to: null } },
    ]);
    expect(audited.every((e) => e.actor_type === 'user' && e.target_id === key.id)).toBe(true);
    // Setting what is already set changes nothing and records nothing.
    expect((await update(owner, key.id, { allowed_ips: null })).status).toBe(200);
    expect(await auditActions(t, owner.workspaceId, 'api_key.updated')).toHaveLength(2);
  });

  it('is stored normalised, each entry once; anything else is a 400 that names the entry', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { allowed_ips: ['10.1.2.3/8', '::ffff:192.0.2.1', '192.0.2.1', '2001:0db8:0:0::7'] });
    expect(key.json.allowed_ips).toEqual(['10.0.0.0/8', '192.0.2.1', '2001:db8::7']);

    const create = (allowed: unknown) => t.request('POST', keys(owner), { token: owner.token, body: { allowed_ips: allowed } });
    expectError(await create(['10.0.0.1', 'example.com']), 400, 'invalid_request', { paths: ['allowed_ips.1'] });
    for (const bad of ['127.1', '10.0.0.0/33', 'fe80::1%eth0', ' 10.0.0.1', '1.2.3.4/8/8']) {
      expectError(await create([bad]), 400, 'invalid_request', { paths: ['allowed_ips.0'] });
    }
    expectError(await create([]), 400, 'invalid_request', { paths: ['allowed_ips'] });
    expectError(await create(Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`)), 400, 'invalid_request', { paths: ['allowed_ips'] });
    expectError(await create('10.0.0.1'), 400, 'invalid_request', { paths: ['allowed_ips'] });
    expectError(await create([42]), 400, 'invalid_request', { paths: ['allowed_ips.0'] });
    expectError(await update(owner, key.id, { allowed_ips: ['x'.repeat(10_000)] }), 400, 'invalid_request', { paths: ['allowed_ips.0'] });
    expect((await getKey(t, owner, key.id)).allowed_ips).toEqual(['10.0.0.0/8', '192.0.2.1', '2001:db8::7']);
    // Nor can a hand-written statement store an empty list, which could be misread as "anywhere".
    for (const list of ['[]', '"10.0.0.1"', JSON.stringify(Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`))]) {
      await expect(t.sql('update api_keys set allowed_ips = ?::jsonb where id = ?', [list, key.id])).rejects.toThrow(/api_keys_allowed_ips_check/);
    }
  });

  it('a roll hands the allowlist to the new key', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { allowed_ips: ['127.0.0.2'] });
    const rolled = await t.request('POST', `${keys(owner)}/${key.id}/roll`, { token: owner.token, body: {} });
    expect(rolled.status, rolled.body).toBe(201);
    expect(rolled.json.allowed_ips).toEqual(['127.0.0.2']);
    expectAccepted(await probeFrom('127.0.0.2', rolled.json.key));
    expectRefused(await probeFrom('127.0.0.3', rolled.json.key));
  });

  it.skipIf(!TEST_DATABASE_URL)('a second replica that cached the key obeys a change made on the first', async () => {
    const replica = await secondReplica(t, clock);
    try {
      const owner = await t.signup();
      const key = await createKey(t, owner, { allowed_ips: ['127.0.0.2'] });
      expectAccepted(await replica.probe(key.key, '127.0.0.2'));
      expectRefused(await replica.probe(key.key, '127.0.0.3'));
      expect((await update(owner, key.id, { allowed_ips: ['127.0.0.3'] })).status).toBe(200);
      // Told by the database; the next request after the notification lands obeys it. Until then
      // the replica refuses 127.0.0.3 as before: each of those is a refusal too.
      let refusedMeanwhile = 0;
      await until('the replica to hear the new allowlist', async () => {
        if ((await replica.probe(key.key, '127.0.0.3')).status === 404) return true;
        refusedMeanwhile++;
        return false;
      });
      expectRefused(await replica.probe(key.key, '127.0.0.2'));
      // The replica's refusals are the key's refused uses, as this server's are.
      await replica.server.services.keyUses.flush();
      expect((await usageToday(t, owner, key.id)).refused.address_not_allowed).toBe(2 + refusedMeanwhile);
    } finally {
      await replica.close();
    }
  });
});
