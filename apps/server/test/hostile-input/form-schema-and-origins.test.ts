/**
 * Hostile input: form schemas and allowed origins.
 */
import { describe, expect, it } from 'vitest';
import { everyCase, expectInvalid, formBody, formId, key, owner, t, useWorld } from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Form schema and origins.
// ---------------------------------------------------------------------------------------------

describe('form schema validation', () => {
  const cases: [string, unknown[], string][] = [
    [
      'an unknown field type',
      [
        { name: 'a', type: 'text' },
        { name: 'b', type: 'password' },
      ],
      'schema.1.type',
    ],
    [
      'a select without options',
      [
        { name: 'a', type: 'text' },
        { name: 'b', type: 'select' },
      ],
      'schema.1.options',
    ],
    ['a select with empty options', [{ name: 'b', type: 'select', options: [] }], 'schema.0.options'],
    [
      'options on a non-select',
      [
        { name: 'a', type: 'text' },
        { name: 'b', type: 'checkbox', options: ['x'] },
      ],
      'schema.1.options',
    ],
    ['duplicate options', [{ name: 'b', type: 'select', options: ['x', 'x'] }], 'schema.0.options'],
    [
      'duplicate field names',
      [
        { name: 'a', type: 'text' },
        { name: 'a', type: 'email' },
      ],
      'schema.1.name',
    ],
    [
      'a later duplicate',
      [
        { name: 'a', type: 'text' },
        { name: 'b', type: 'text' },
        { name: 'c', type: 'text' },
        { name: 'b', type: 'url' },
      ],
      'schema.3.name',
    ],
  ];

  it.each(cases)('%s → 400 with a detail at the field (create and update)', async (_what, schema, path) => {
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema } }), path, 'create');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema } }), path, 'update');
    // With a session too (the same validation whatever the credential).
    expectInvalid(
      await t.request('POST', '/v1/forms', { token: owner.token, body: { name: 'F', schema, workspace_id: owner.workspaceId } }),
      path,
      'create with a session',
    );
  });

  it('every documented field type is accepted', async () => {
    const schema: Record<string, unknown>[] = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox'].map((type) => ({
      name: `f_${type}`,
      type,
      required: false,
    }));
    schema.push({ name: 'f_select', type: 'select', required: false, options: ['a'] });
    const res = await t.request('POST', '/v1/forms', { token: key, body: { name: 'All', schema } });
    expect(res.status, res.body).toBe(201);
    expect(res.json.schema).toEqual(schema);
  });

  it('a session without workspace_id → 400 at workspace_id', async () => {
    expectInvalid(await t.request('POST', '/v1/forms', { token: owner.token, body: formBody }), 'workspace_id');
  });
});

describe('allowed_origins', () => {
  const BAD_ORIGINS = [
    'https://example.com/path',
    'https://example.com//',
    'https://example.com/?',
    'https://example.com/#',
    'https://example.com?x=1',
    'https://example.com#top',
    'https://user:pw@example.com',
    'ftp://example.com',
    'javascript:alert(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
    'ws://example.com',
    'example.com',
    '//example.com',
    '*',
    'null',
    '',
    'https://',
    `https://${'a'.repeat(2100)}.com`,
  ];

  it('with paths, non-http schemes or anything but an origin → 400 at allowed_origins.N', async () => {
    await everyCase(BAD_ORIGINS, async (bad) => {
      const allowed_origins = ['https://good.example', bad];
      expectInvalid(
        await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins } }),
        'allowed_origins.1',
        `create ${bad.slice(0, 60)}`,
      );
      expectInvalid(
        await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { allowed_origins } }),
        'allowed_origins.1',
        `update ${bad.slice(0, 60)}`,
      );
    });
  });

  it('more than 50 origins → 400', async () => {
    const allowed_origins = Array.from({ length: 51 }, (_, i) => `https://o${i}.example`);
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins } }), 'allowed_origins');
  });

  it('real origins are normalised: case, default ports, IDN', async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      body: { ...formBody, allowed_origins: ['HTTPS://Example.COM:443', 'http://localhost:8080', 'https://bücher.example'] },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json.allowed_origins).toEqual(['https://example.com', 'http://localhost:8080', 'https://xn--bcher-kva.example']);
  });

  it('a bare trailing slash, as copied from the address bar, is taken and dropped', async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      body: { ...formBody, allowed_origins: ['http://localhost:8080/', 'https://example.com/', 'https://example.com'] },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json.allowed_origins).toEqual(['http://localhost:8080', 'https://example.com']);
  });
});
