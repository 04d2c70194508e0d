/**
 * Hostile input: lengths, wrong types and unknown fields of specific bodies.
 */
import { describe, expect, it } from 'vitest';
import { expectDocumentedError, PASSWORD } from '@lfk/server/testing';
import { everyCase, expectInvalid, formBody, formId, freshEmail, key, member, outsider, owner, t, useWorld } from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Lengths, types and unknown fields of specific bodies.
// ---------------------------------------------------------------------------------------------

describe('lengths', () => {
  it('workspace names: 100 characters are fine, 101 are not', async () => {
    const ok = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'w'.repeat(100) } });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.name).toBe('w'.repeat(100));
    const long = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'w'.repeat(101) } });
    expectInvalid(long, 'name', 'workspace name 101');
    const huge = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'w'.repeat(500_000) } });
    expectInvalid(huge, 'name', 'workspace name 500k');
  });

  it('project names: 100 characters are fine, 101 are not', async () => {
    const url = `/v1/workspaces/${owner.workspaceId}/projects`;
    expectInvalid(await t.request('POST', url, { token: owner.token, body: { name: 'p'.repeat(101) } }), 'name');
    const ok = await t.request('POST', url, { token: owner.token, body: { name: 'p'.repeat(100) } });
    expect(ok.status, ok.body).toBe(201);
  });

  it('signup names: at most 100 characters', async () => {
    const res = await t.request('POST', '/v1/auth/signup', {
      body: { email: freshEmail(), password: PASSWORD, name: 'n'.repeat(101) },
    });
    expectInvalid(res, 'name');
  });

  it('key names: 64 characters are fine, 65 are not', async () => {
    const ws = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'keys' } });
    const url = `/v1/workspaces/${ws.json.id}/api-keys`;
    expectInvalid(await t.request('POST', url, { token: owner.token, body: { name: 'k'.repeat(65) } }), 'name');
    const ok = await t.request('POST', url, { token: owner.token, body: { name: 'k'.repeat(64) } });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.name).toBe('k'.repeat(64));
  });

  it('form names: 200 characters are fine, 201 are not (create and update)', async () => {
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, name: 'f'.repeat(201) } }), 'name');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { name: 'f'.repeat(201) } }), 'name');
    const ok = await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, name: 'f'.repeat(200) } });
    expect(ok.status, ok.body).toBe(201);
  });

  it('field names: 64 characters are fine, 65 are not', async () => {
    const field = (name: string) => ({
      name: 'F',
      schema: [
        { name: 'ok', type: 'text' },
        { name, type: 'text' },
      ],
    });
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: field('a'.repeat(65)) }), 'schema.1.name');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema: field('a'.repeat(65)).schema } }), 'schema.1.name');
    const ok = await t.request('POST', '/v1/forms', { token: key, body: field('a'.repeat(64)) });
    expect(ok.status, ok.body).toBe(201);
  });

  it('fields: 100 are fine, 101 are not, 0 are not', async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type: 'text' }));
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: fields(101) } }), 'schema');
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: fields(0) } }), 'schema');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema: fields(101) } }), 'schema');
    const ok = await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: fields(100) } });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.schema).toHaveLength(100);
  });

  it('labels and options: at most 200 characters, at most 100 options', async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'text', label: 'l'.repeat(201) }] },
    });
    expectInvalid(res, 'schema.0.label');
    const opts = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'select', options: ['o'.repeat(201)] }] },
    });
    expectInvalid(opts, 'schema.0.options.0');
    const many = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'select', options: Array.from({ length: 101 }, (_, i) => `o${i}`) }] },
    });
    expectInvalid(many, 'schema.0.options');
  });

  it('passwords and emails: overlong values are a 400, not a hashing marathon or a 500', async () => {
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: 'p'.repeat(1025) } }), 'password');
    expectInvalid(await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: 'p'.repeat(1025) } }), 'password');
    const longEmail = `${'a'.repeat(250)}@example.com`;
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: longEmail, password: PASSWORD } }), 'email');
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: 'not an email', password: PASSWORD } }), 'email');
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: 'short' } }), 'password');
  });
});

describe('wrong types', () => {
  it('a number, null, boolean, object or array where a string is expected → 400 naming the field', async () => {
    await everyCase([42, null, true, { a: 1 }, ['x']], async (value) => {
      const what = JSON.stringify(value);
      expectInvalid(await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: value } }), 'name', what);
      expectInvalid(await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: { name: value } }), 'name', what);
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, name: value } }), 'name', what);
      expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { name: value } }), 'name', what);
      expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: value, password: PASSWORD } }), 'email', what);
      expectInvalid(await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: value } }), 'password', what);
      expectInvalid(await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: value } }), 'email', what);
    });
  });

  it('a string for the boolean `required` → 400 at schema.N.required', async () => {
    await everyCase(['yes', 'true', 1, null], async (required) => {
      const body = {
        name: 'F',
        schema: [
          { name: 'a', type: 'text' },
          { name: 'b', type: 'text', required },
        ],
      };
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body }), 'schema.1.required', JSON.stringify(required));
      expectInvalid(
        await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema: body.schema } }),
        'schema.1.required',
        JSON.stringify(required),
      );
    });
  });

  it('wrong types and values of the other form fields', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ schema: 'email' }, 'schema'],
      [{ schema: { name: 'a', type: 'text' } }, 'schema'],
      [{ schema: ['email'] }, 'schema.0'],
      [{ schema: [null] }, 'schema.0'],
      [{ schema: [{ name: 5, type: 'text' }] }, 'schema.0.name'],
      [{ schema: [{ type: 'text' }] }, 'schema.0.name'],
      [{ schema: [{ name: 'a' }] }, 'schema.0.type'],
      [{ schema: [{ name: 'a', type: 7 }] }, 'schema.0.type'],
      [{ schema: [{ name: 'a', type: 'select', options: 'x,y' }] }, 'schema.0.options'],
      [{ schema: [{ name: 'a', type: 'select', options: [1, 2] }] }, 'schema.0.options.0'],
      [{ schema: [{ name: 'a', type: 'text', label: 5 }] }, 'schema.0.label'],
      [{ submission_mode: 'email' }, 'submission_mode'],
      [{ submission_mode: 1 }, 'submission_mode'],
      [{ allowed_origins: 'https://example.com' }, 'allowed_origins'],
      [{ allowed_origins: [5] }, 'allowed_origins.0'],
      [{ redirect_url: 5 }, 'redirect_url'],
      [{ redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
      [{ redirect_url: 'not a url' }, 'redirect_url'],
      [{ redirect_url: 'https://user:pass@example.com/' }, 'redirect_url'],
      [{ project_id: 5 }, 'project_id'],
      [{ workspace_id: 5 }, 'workspace_id'],
    ];
    await everyCase(cases, async ([patch, path]) => {
      const what = JSON.stringify(patch);
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, ...patch } }), path, `create ${what}`);
      if (!('workspace_id' in patch)) {
        expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: patch }), path, `update ${what}`);
      }
    });
  });

  it('a member role outside owner|member → 400 at role', async () => {
    await everyCase(['admin', 'OWNER', 5, null], async (role) => {
      const res = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, {
        token: owner.token,
        body: { email: outsider.email, role },
      });
      expectInvalid(res, 'role', JSON.stringify(role));
    });
  });
});

describe('unknown fields', () => {
  it('are refused on every strict body, also nested in a form field', async () => {
    const cases: [string, string, string | undefined, Record<string, unknown>][] = [
      ['POST', '/v1/auth/signup', undefined, { email: freshEmail(), password: PASSWORD, is_admin: true }],
      ['POST', '/v1/auth/login', undefined, { email: owner.email, password: PASSWORD, otp: '123456' }],
      ['POST', '/v1/workspaces', owner.token, { name: 'W', owner_id: member.userId }],
      ['POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, owner.token, { name: 'k', workspace_id2: 'x' }],
      ['POST', `/v1/workspaces/${owner.workspaceId}/projects`, owner.token, { name: 'P', is_default: true }],
      ['POST', `/v1/workspaces/${owner.workspaceId}/invitations`, owner.token, { email: outsider.email, admin: true }],
      ['POST', '/v1/forms', key, { ...formBody, id: 'form_01jd00000000000000000000aa' }],
      ['POST', '/v1/forms', key, { ...formBody, state: 'unclaimed' }],
      ['PATCH', `/v1/forms/${formId}`, key, { workspace_id: outsider.workspaceId }],
      ['PATCH', `/v1/forms/${formId}`, key, { state: 'unclaimed' }],
    ];
    await everyCase(cases, async ([method, url, token, body]) => {
      const res = await t.request(method, url, { ...(token ? { token } : {}), body });
      const error = expectDocumentedError(res, 400, 'invalid_request', `${method} ${url} ${JSON.stringify(body)}`);
      expect(error.details?.length).toBeGreaterThan(0);
    });
    const nested = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'text', placeholder: 'x' }] },
    });
    expectInvalid(nested, 'schema.0', 'unknown key in a field');
    // Nothing moved: the form is still in its workspace.
    const form = await t.request('GET', `/v1/forms/${formId}`, { token: key });
    expect(form.json.workspace_id).toBe(owner.workspaceId);
  });
});
