/**
 * Rolling a key over REST (issue 14): what a body that is not a roll request is answered. The
 * rules of a roll (the grace, what cannot be rolled, the 10-active-keys limit and its races, the
 * expiry policy) are packages/api/src/features/keys/roll.test.ts's, called through `createCaller`.
 */
import { ENGINE, expectError } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { createKey, getKey, testClock, useKeysServer } from './fixtures.ts';

const t = useKeysServer(testClock());

describe(`rolling a key (${ENGINE})`, () => {
  it('a body that is not a roll request: 400 invalid_json, 400 invalid_request, 415 — and the key is not rolled', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    const url = `/v1/workspaces/${owner.workspaceId}/api-keys/${key.id}/roll`;
    const send = (raw: string, contentType = 'application/json') =>
      t.request('POST', url, { token: owner.token, raw, headers: { 'content-type': contentType } });
    expectError(await send('{"grace_seconds":'), 400, 'invalid_json');
    for (const raw of ['[]', '"x"', '42']) expectError(await send(raw), 400, 'invalid_request', { what: raw });
    expectError(await send('{"grace_seconds":0,"expires_at":"2030-01-01T00:00:00Z"}'), 400, 'invalid_request');
    expectError(await send('{"__proto__":{"admin":true},"grace_seconds":0}'), 400, 'invalid_request');
    expectError(await send('grace_seconds=0', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    expect(await getKey(t, owner, key.id)).toMatchObject({ status: 'active', rolled_to: null });
    // An empty body is no input: the defaults, a roll without a grace.
    expect((await send('')).status).toBe(201);
  });
});
