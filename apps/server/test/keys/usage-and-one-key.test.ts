/**
 * Where a key is used (issue 14): `last_used_ip`, `last_used_user_agent` beside `last_used_at`, and
 * requests per UTC day (`GET …/api-keys/{key_id}/usage`), gathered in memory and written in batches:
 * no write on the request path, counts equal to the requests made after a flush, and a failed batch
 * retried rather than lost. And one key's page, `GET …/api-keys/{key_id}`.
 */
import { ENGINE, expectError } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { countStatements, createKey, DAY, expectAccepted, getKey, NO_REFUSALS, probe, useKeysServer, testClock } from './fixtures.ts';

const clock = testClock();
// A database of its own: a test here renames the usage table under the server.
const t = useKeysServer(clock, {}, { database: 'own' });

const usage = (owner: { token: string; workspaceId: string }, keyId: string, query = '') =>
  t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}/usage${query}`, { token: owner.token });
const today = () => clock.now().toISOString().slice(0, 10);
/** A day on which every request was accepted. */
const accepted = (date: string, requests: number) => ({ date, requests, refused: NO_REFUSALS });
const flush = () => t.server.services.keyUses.flush();

/** A key's table goes away for a moment (PGlite lives in-process, so a rename stands in for an outage). */
async function usageTableAway(): Promise<() => Promise<void>> {
  await t.sql('alter table api_key_usage rename to api_key_usage_offline');
  return async () => void (await t.sql('alter table api_key_usage_offline rename to api_key_usage'));
}

describe(`usage and where a key was last used (${ENGINE})`, () => {
  it('counts every request, with no write on the request path, and shows the last address and user agent', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    await flush();
    const counted = countStatements(t.server);
    try {
      for (let i = 0; i < 7; i++) expectAccepted(await probe(t, key.key, { 'user-agent': `agent/${i}` }));
      // Requests with the key read (the key once, then the form each time); none of them writes
      // what the key's use records (the email sender's polls may run meanwhile: they are not the request's).
      expect(counted.statements.length).toBeGreaterThanOrEqual(7);
      expect(counted.writes().filter((sql) => /api_key|last_used/.test(sql))).toEqual([]);
      expect(counted.statements.filter((sql) => sql.includes('api_key_usage'))).toEqual([]);
    } finally {
      counted.stop();
    }
    expect(await getKey(t, owner, key.id)).toMatchObject({ last_used_at: null, last_used_ip: null, last_used_user_agent: null });

    await flush();
    const res = await usage(owner, key.id, '?days=3');
    expect(res.status, res.body).toBe(200);
    expect(res.json.data).toHaveLength(3);
    expect(res.json.data.at(-1)).toEqual(accepted(today(), 7));
    expect(res.json.data.slice(0, 2).map((d: { requests: number }) => d.requests)).toEqual([0, 0]);
    expect(await getKey(t, owner, key.id)).toMatchObject({
      last_used_at: clock.now().toISOString(),
      last_used_ip: '127.0.0.1',
      last_used_user_agent: 'agent/6',
    });
    // The default is 30 days, oldest first.
    const month = await usage(owner, key.id);
    expect(month.json.data).toHaveLength(30);
    expect(month.json.data[0].date < month.json.data[29].date).toBe(true);
  });

  it('counts per UTC day, and adds to a day already written', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    for (let i = 0; i < 3; i++) expectAccepted(await probe(t, key.key));
    await flush();
    const first = today();
    for (let i = 0; i < 2; i++) expectAccepted(await probe(t, key.key));
    await flush();
    clock.advance(DAY);
    for (let i = 0; i < 4; i++) expectAccepted(await probe(t, key.key));
    await flush();
    const res = await usage(owner, key.id, '?days=2');
    expect(res.json.data).toEqual([accepted(first, 5), accepted(today(), 4)]);
  });

  it('a failed batch is merged into the next one: nothing lost, nothing counted twice', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    for (let i = 0; i < 5; i++) expectAccepted(await probe(t, key.key, { 'user-agent': 'before' }));
    const restore = await usageTableAway();
    try {
      await expect(flush()).rejects.toThrow();
    } finally {
      await restore();
    }
    expect(t.logs.some((line) => line.includes('could not write key uses'))).toBe(true);
    // The failed batch was written whole or not at all: not even last_used_at went out.
    expect(await getKey(t, owner, key.id)).toMatchObject({ last_used_at: null });
    for (let i = 0; i < 3; i++) expectAccepted(await probe(t, key.key, { 'user-agent': 'after' }));
    await flush();
    const res = await usage(owner, key.id, '?days=1');
    expect(res.json.data).toEqual([accepted(today(), 8)]);
    expect(await getKey(t, owner, key.id)).toMatchObject({ last_used_user_agent: 'after' });
    await flush();
    expect((await usage(owner, key.id, '?days=1')).json.data).toEqual([accepted(today(), 8)]);
  });

  it('takes days 1…90, and a key of this workspace only', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    for (const days of ['0', '91', '-1', 'x', '1.5']) expectError(await usage(owner, key.id, `?days=${days}`), 400, 'invalid_request', { paths: ['days'] });
    expect((await usage(owner, key.id, '?days=90')).json.data).toHaveLength(90);
    const outsider = await t.signup();
    const theirs = await createKey(t, outsider);
    expectError(await usage(owner, theirs.id), 404, 'api_key_not_found');
    expectError(await usage(owner, 'key_nope'), 404, 'api_key_not_found');
  });
});

describe(`one key's page (${ENGINE})`, () => {
  it("is the list item, for this workspace's keys only", async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { name: 'one', expires_at: new Date(clock.now().getTime() + 30 * DAY).toISOString() });
    const listed = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(await getKey(t, owner, key.id)).toEqual(listed.json.data[0]);
    expect(listed.json.data[0]).toMatchObject({ name: 'one', expires_at: key.json.expires_at, status: 'active' });
    const outsider = await t.signup();
    const theirs = await createKey(t, outsider);
    for (const id of [theirs.id, 'key_01jzzzzzzzzzzzzzzzzzzzzzzz', 'nope']) {
      expectError(await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token }), 404, 'api_key_not_found');
    }
  });

  it('and the new routes and fields are in the OpenAPI document', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).json;
    const keyPath = doc.paths['/v1/workspaces/{workspace_id}/api-keys/{key_id}'];
    expect(keyPath.get.operationId).toBe('apiKeys.get');
    expect(keyPath.get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ApiKey' });
    expect(Object.keys(doc.components.schemas.ApiKey.properties)).toEqual(
      expect.arrayContaining(['expires_at', 'revoked_reason', 'rolled_to', 'last_used_ip', 'last_used_user_agent']),
    );
    const rollOp = doc.paths['/v1/workspaces/{workspace_id}/api-keys/{key_id}/roll'].post;
    expect(rollOp.requestBody.content['application/json'].schema.properties.grace_seconds).toMatchObject({ minimum: 0, maximum: 604800 });
    expect(rollOp.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreatedApiKey' });
    expect(rollOp.responses['409']).toBeDefined();
    expect(rollOp.responses['429']).toBeDefined();
    const usageOp = doc.paths['/v1/workspaces/{workspace_id}/api-keys/{key_id}/usage'].get;
    expect(usageOp.parameters.map((p: { name: string }) => p.name)).toContain('days');
    const create = doc.paths['/v1/workspaces/{workspace_id}/api-keys'].post;
    expect(create.requestBody.content['application/json'].schema.properties.expires_at).toBeDefined();
    const reports = doc.paths['/v1/secret-scanning/reports'].post;
    expect(reports.requestBody.content['application/json'].schema.type).toBe('array');
    expect(reports.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'header:Github-Public-Key-Identifier',
      'header:Github-Public-Key-Signature',
    ]);
    expect(reports.responses['401']).toBeDefined();
    expect(doc.components).toBeDefined();
  });
});
