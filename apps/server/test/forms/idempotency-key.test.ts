/**
 * Forms: Idempotency-Key on POST /v1/forms.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '@lfk/server/testing';
import { anonymousBody, countForms, SCHEMA, t, unique, useWorld } from './fixtures.ts';

useWorld();

describe('Idempotency-Key on POST /v1/forms', () => {
  it('with a key: a retry replays the stored 201 with no second row; another body is 409', async () => {
    const { owner, key } = await t.signupWithKey();
    const headers = { 'idempotency-key': unique('order') };
    const body = { name: 'Once', schema: SCHEMA, allowed_origins: ['https://example.com'] };

    const first = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(first.status, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(second.status, second.body).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json).toEqual(first.json);
    // The same body with its keys in another order is the same request.
    const reordered = await t.request('POST', '/v1/forms', {
      token: key,
      body: { allowed_origins: ['https://example.com'], schema: SCHEMA, name: 'Once' },
      headers,
    });
    expect(reordered.status).toBe(201);
    expect(reordered.json.id).toBe(first.json.id);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(1);

    const other = await t.request('POST', '/v1/forms', { token: key, body: { ...body, name: 'Twice' }, headers });
    expectError(other, 409, 'idempotency_key_reused');
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(1);
  });

  it('keys are per caller: another key (or a session) with the same Idempotency-Key makes its own form', async () => {
    const owner = await t.signup();
    const a = await t.createKey(owner.token, owner.workspaceId);
    const b = await t.createKey(owner.token, owner.workspaceId);
    const headers = { 'idempotency-key': unique('shared') };
    const body = { name: 'Per caller', schema: SCHEMA };

    const byA = await t.request('POST', '/v1/forms', { token: a.key, body, headers });
    const byB = await t.request('POST', '/v1/forms', { token: b.key, body, headers });
    const bySession = await t.request('POST', '/v1/forms', {
      token: owner.token,
      body: { ...body, workspace_id: owner.workspaceId },
      headers,
    });
    for (const res of [byA, byB, bySession]) {
      expect(res.status, res.body).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set([byA.json.id, byB.json.id, bySession.json.id]).size).toBe(3);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(3);
    // Each caller's own retry still replays its own form.
    const retryB = await t.request('POST', '/v1/forms', { token: b.key, body, headers });
    expect(retryB.json.id).toBe(byB.json.id);
    expect(retryB.headers['idempotent-replayed']).toBe('true');
  });

  it('anonymous: the replay is the same form with claim_token null, and the stored record holds no token', async () => {
    const idem = unique('anon');
    const body = anonymousBody();
    const first = await t.request('POST', '/v1/forms', { body, headers: { 'idempotency-key': idem } });
    expect(first.status, first.body).toBe(201);
    expect(first.json.claim_token).toMatch(/^lfc_[0-9A-Za-z]{43}$/);
    const replay = await t.request('POST', '/v1/forms', { body, headers: { 'idempotency-key': idem } });
    expect(replay.status, replay.body).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json).toEqual({ ...first.json, claim_token: null });
    expect(await countForms('name = ?', [body.name])).toBe(1);

    const records = await t.sql<{ body: string }>('select response_body::text as body from idempotency_records where key = ?', [idem]);
    expect(records).toHaveLength(1);
    expect(records[0]!.body).not.toContain(first.json.claim_token.slice(4));

    // The token from the first response still claims the form.
    const user = await t.signup();
    const claimed = await t.request('POST', `/v1/forms/${first.json.id}/claim`, {
      token: user.token,
      body: { claim_token: first.json.claim_token, workspace_id: user.workspaceId },
    });
    expect(claimed.status, claimed.body).toBe(200);
  });

  it('8 concurrent identical requests: all 201 with one id, exactly one row', async () => {
    const { owner, key } = await t.signupWithKey();
    const headers = { 'idempotency-key': unique('burst') };
    const body = { name: 'Burst', schema: SCHEMA };
    const results = await Promise.all(Array.from({ length: 8 }, () => t.request('POST', '/v1/forms', { token: key, body, headers })));
    for (const res of results) expect(res.status, res.body).toBe(201);
    expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(1);
  });

  it('a request that failed is not stored: the same key then works with a valid body', async () => {
    const { key } = await t.signupWithKey();
    const idem = unique('retry-after-fix');
    const headers = { 'idempotency-key': idem };

    const invalid = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Fixed', schema: [{ name: 'topic', type: 'select' }] },
      headers,
    });
    expectError(invalid, 400, 'invalid_request');
    const unknownProject = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Fixed', schema: SCHEMA, project_id: 'prj_01jd00000000000000000000aa' },
      headers,
    });
    expectError(unknownProject, 404, 'project_not_found');
    expect(await t.count('idempotency_records where key = ?', [idem])).toBe(0);

    const fixed = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Fixed', schema: SCHEMA }, headers });
    expect(fixed.status, fixed.body).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();

    // Anonymous too: a 400 for the missing notify_email leaves the key free.
    const anonKey = unique('anon-retry');
    const anonBody = anonymousBody();
    const { notify_email: _drop, ...withoutEmail } = anonBody;
    expectError(await t.request('POST', '/v1/forms', { body: withoutEmail, headers: { 'idempotency-key': anonKey } }), 400, 'invalid_request', {
      paths: ['notify_email'],
    });
    const anonFixed = await t.request('POST', '/v1/forms', { body: anonBody, headers: { 'idempotency-key': anonKey } });
    expect(anonFixed.status, anonFixed.body).toBe(201);
    expect(anonFixed.json.claim_token).toMatch(/^lfc_/);
  });

  it('an expired record no longer replays', async () => {
    const { owner, key } = await t.signupWithKey();
    const idem = unique('expiring');
    const headers = { 'idempotency-key': idem };
    const body = { name: 'Expiring', schema: SCHEMA };
    const first = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(first.status).toBe(201);

    await t.sql('update idempotency_records set expires_at = ? where key = ?', [new Date(Date.now() - 3600_000).toISOString(), idem]);
    const afterExpiry = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(afterExpiry.status, afterExpiry.body).toBe(201);
    expect(afterExpiry.headers['idempotent-replayed']).toBeUndefined();
    expect(afterExpiry.json.id).not.toBe(first.json.id);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(2);

    // The fresh record replays as usual; another body is refused again.
    const replay = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(replay.json.id).toBe(afterExpiry.json.id);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(2);
  });

  it('a malformed Idempotency-Key is 400 and creates nothing', async () => {
    const { owner, key } = await t.signupWithKey();
    for (const bad of ['x'.repeat(256), 'y'.repeat(300), 'has space', 'tab\there']) {
      const res = await t.request('POST', '/v1/forms', {
        token: key,
        body: { name: 'Bad key', schema: SCHEMA },
        headers: { 'idempotency-key': bad },
      });
      expectError(res, 400, 'invalid_request', { paths: ['Idempotency-Key'] });
    }
    const anon = anonymousBody();
    expectError(await t.request('POST', '/v1/forms', { body: anon, headers: { 'idempotency-key': 'z'.repeat(300) } }), 400, 'invalid_request', {
      paths: ['Idempotency-Key'],
    });
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(0);
    expect(await countForms('name = ?', [anon.name])).toBe(0);
    // 255 visible characters is the longest good key.
    const longest = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Good key', schema: SCHEMA },
      headers: { 'idempotency-key': `${unique('k')}${'~'.repeat(240)}`.slice(0, 255) },
    });
    expect(longest.status, longest.body).toBe(201);
  });
});
