/**
 * Submissions end to end: api_key-mode forms.
 */
import { generateApiKey } from '@lfk/api';
import { newId } from '@lfk/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, ORIGIN } from '@lfk/server/testing';
import {
  contactSchema,
  corsHeaderNames,
  countRows,
  expectCreated,
  member,
  outsiderKey,
  owner,
  ownerKey,
  storedRows,
  submit,
  t,
  useWorld,
  withoutRequestId,
} from './fixtures.ts';

useWorld();

describe('api_key-mode forms', () => {
  let formId: string;
  beforeAll(async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: ownerKey.key,
      body: { name: 'Server only', schema: contactSchema, submission_mode: 'api_key' },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json).toMatchObject({ state: 'claimed', submission_mode: 'api_key', workspace_id: owner.workspaceId });
    formId = res.json.id;
  });
  const valid = { name: 'Ada', email: 'ada@example.com' };

  it('without a key: 401 api_key_required, also with a session bearer or a browser Origin', async () => {
    expectError(await submit(formId, valid), 401, 'api_key_required');
    expectError(await submit(formId, valid, { origin: ORIGIN }), 401, 'api_key_required');
    expectError(await submit(formId, valid, { key: owner.token }), 401, 'api_key_required');
    expectError(await submit(formId, valid, { key: member.token }), 401, 'api_key_required');
    expect(await countRows(formId)).toBe(0);
  });

  it('malformed, unknown and revoked keys get the same 401 invalid_api_key', async () => {
    const revoked = await t.createKey(owner.token, owner.workspaceId, 'revoked');
    const revoke = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${revoked.id}`, {
      token: owner.token,
    });
    expect(revoke.status).toBe(204);

    const malformed = await submit(formId, valid, { key: 'lfk_not-a-real-key' });
    const unknown = await submit(formId, valid, { key: generateApiKey().key });
    const gone = await submit(formId, valid, { key: revoked.key });
    for (const res of [malformed, unknown, gone]) expectError(res, 401, 'invalid_api_key');
    expect(withoutRequestId(unknown)).toEqual(withoutRequestId(malformed));
    expect(withoutRequestId(gone)).toEqual(withoutRequestId(malformed));
    expect(await countRows(formId)).toBe(0);
  });

  it("another workspace's key is 403 forbidden", async () => {
    expectError(await submit(formId, valid, { key: outsiderKey.key }), 403, 'forbidden');
    expect(await countRows(formId)).toBe(0);
  });

  it('the right key submits: 201, listed with source api_key', async () => {
    const res = await submit(formId, valid, { key: ownerKey.key });
    expectCreated(res, formId);
    expect(corsHeaderNames(res)).toEqual([]);
    const list = await t.request('GET', `/v1/forms/${formId}/submissions`, { token: owner.token });
    expect(list.status).toBe(200);
    // The optional checkbox left out is stored unticked.
    const stored = { ...valid, agree: false };
    expect(list.json.data).toEqual([
      {
        id: res.json.id,
        form_id: formId,
        data: stored,
        files: [],
        source: 'api_key',
        status: 'ok',
        spam_reason: null,
        spam_score: expect.any(Number),
        spam_reasons: expect.any(Array),
        created_at: res.json.created_at,
      },
    ]);
    expect(await storedRows(formId)).toEqual([{ id: res.json.id, data: stored, source: 'api_key', api_key_id: ownerKey.id }]);
  });

  it('a key on an unclaimed (anonymous) form is 404 form_not_found', async () => {
    const anon = await t.request('POST', '/v1/forms', {
      body: { name: 'Anon', schema: contactSchema, notify_email: 'anon@example.com', allowed_origins: [ORIGIN] },
    });
    expect(anon.status, anon.body).toBe(201);
    expect(anon.json.state).toBe('unclaimed');
    for (const key of [ownerKey.key, outsiderKey.key]) {
      expectError(await submit(anon.json.id, valid, { key }), 404, 'form_not_found');
      expectError(await submit(anon.json.id, valid, { key, origin: ORIGIN }), 404, 'form_not_found');
    }
    expect(await countRows(anon.json.id)).toBe(0);
    // The browser path still works for it.
    expectCreated(await submit(anon.json.id, valid, { origin: ORIGIN }), anon.json.id);
  });

  it('unknown and wrong-shaped form ids are 404 form_not_found', async () => {
    for (const id of [newId('form'), 'nope', 'form_123', newId('sub'), 'x'.repeat(300), encodeURIComponent('form_%00')]) {
      expectError(await submit(id, valid, { origin: ORIGIN }), 404, 'form_not_found');
      expectError(await submit(id, valid, { key: ownerKey.key }), 404, 'form_not_found');
      expectError(await submit(id, valid), 404, 'form_not_found');
      expectError(await t.request('GET', `/v1/forms/${id}/submissions`, { token: owner.token }), 404, 'form_not_found');
    }
  });
});
