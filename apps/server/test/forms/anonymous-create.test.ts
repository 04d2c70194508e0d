/**
 * Forms: anonymous POST /v1/forms makes an unclaimed form with a claim token shown once.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '@lfk/server/testing';
import { address, anonymousBody, countForms, defaultProjectOf, formRow, json, SCHEMA, sha256Hex, t, unique, useWorld } from './fixtures.ts';

useWorld();

describe('anonymous POST /v1/forms', () => {
  it('makes an unclaimed form with a claim token shown once; only its sha256 is stored', async () => {
    const name = unique('Waitlist');
    const notify = address('Owner'); // mixed case: stored lowercased
    const res = await t.request('POST', '/v1/forms', {
      body: { name, schema: SCHEMA, notify_email: notify, allowed_origins: ['https://example.com'] },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json).toMatchObject({
      name,
      state: 'unclaimed',
      workspace_id: null,
      project_id: null,
      schema: [{ name: 'email', type: 'email', required: true }],
      submission_mode: 'browser',
      allowed_origins: ['https://example.com'],
      notify_email: notify.toLowerCase(),
      notify_email_verified: false,
      redirect_url: null,
    });
    expect(res.json.id).toMatch(/^form_[0-9a-z]{26}$/);
    const token: string = res.json.claim_token;
    expect(token).toMatch(/^lfc_[0-9A-Za-z]{43}$/);

    const row = await formRow(res.json.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    expect(row.project_id).toBeNull();
    expect(row.claim_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.claim_token_hash).toBe(sha256Hex(token));
    // The token itself is nowhere in the row.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(4));
    // Nor in any log line.
    expect(t.logs.some((line) => line.includes(token.slice(4)))).toBe(false);
  });

  it('requires notify_email (missing or null) → 400 with detail notify_email, and stores nothing', async () => {
    const name = unique('No email');
    const missing = await t.request('POST', '/v1/forms', { body: { name, schema: SCHEMA } });
    expectError(missing, 400, 'invalid_request', { paths: ['notify_email'] });
    const nulled = await t.request('POST', '/v1/forms', { body: { name, schema: SCHEMA, notify_email: null } });
    expectError(nulled, 400, 'invalid_request', { paths: ['notify_email'] });
    expect(await countForms('name = ?', [name])).toBe(0);
  });

  it('refuses submission_mode api_key → 400 with detail submission_mode', async () => {
    const body = anonymousBody({ submission_mode: 'api_key' });
    const res = await t.request('POST', '/v1/forms', { body });
    expectError(res, 400, 'invalid_request', { paths: ['submission_mode'] });
    expect(await countForms('name = ?', [body.name])).toBe(0);
  });

  it('a workspace_id or project_id without credentials is 401 unauthenticated', async () => {
    const owner = await t.signup();
    const project = await defaultProjectOf(owner.token, owner.workspaceId);
    for (const extra of [{ workspace_id: owner.workspaceId }, { project_id: project }]) {
      const body = anonymousBody(extra);
      const res = await t.request('POST', '/v1/forms', { body });
      expectError(res, 401, 'unauthenticated');
      expect(await countForms('name = ?', [body.name])).toBe(0);
    }
  });

  it('a select field needs options; other fields take none', async () => {
    const noOptions = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'select' }] }),
    });
    expectError(noOptions, 400, 'invalid_request', { paths: ['schema.0.options'] });
    const emptyOptions = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'select', options: [] }] }),
    });
    expectError(emptyOptions, 400, 'invalid_request');
    expect(emptyOptions.json.error.details[0].path).toBe('schema.0.options');
    const textWithOptions = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'text', options: ['a'] }] }),
    });
    expectError(textWithOptions, 400, 'invalid_request', { paths: ['schema.0.options'] });

    const ok = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'select', options: ['Sales', 'Support'] }] }),
    });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.schema).toEqual([{ name: 'topic', type: 'select', required: false, options: ['Sales', 'Support'] }]);
  });

  it('normalises allowed_origins and rejects anything that is not a bare origin', async () => {
    const ok = await t.request('POST', '/v1/forms', {
      body: anonymousBody({
        allowed_origins: ['HTTPS://Example.COM:443', 'http://LOCALHOST:3000', 'https://example.com', 'http://a.test:80'],
      }),
    });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.allowed_origins).toEqual(['https://example.com', 'http://localhost:3000', 'http://a.test']);
    const row = await formRow(ok.json.id);
    expect(json(row.allowed_origins)).toEqual(['https://example.com', 'http://localhost:3000', 'http://a.test']);

    for (const bad of [
      'https://example.com/path',
      'https://example.com/?q=1',
      'https://example.com?q=1',
      'https://example.com#top',
      'https://user:pw@example.com',
      'https://user@example.com',
      'ftp://example.com',
      'javascript:alert(1)',
      'example.com',
      '*',
      '',
    ]) {
      const res = await t.request('POST', '/v1/forms', { body: anonymousBody({ allowed_origins: [bad] }) });
      expectError(res, 400, 'invalid_request', { paths: ['allowed_origins.0'] });
    }
  });
});
