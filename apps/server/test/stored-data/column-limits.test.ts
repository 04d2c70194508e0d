/**
 * Every stored string fits its column: each limit is enforced by the schema that feeds the column
 * (the longest value is taken and stored whole, one more character is a 400 naming the field, never
 * a 500), limits count characters as the database does (an emoji is one), and values the server
 * derives (a sign-up's workspace name, an idempotency scope) are made to fit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, PASSWORD, type Res, useTestServer } from '@lfk/server/testing';

// A trusted proxy: the client address is whatever X-Forwarded-For says.
const t = useTestServer({ LFK_TRUST_PROXY: '127.0.0.1' });
let owner: Account;
let key: string;
let formId: string;

const SCHEMA = [{ name: 'email', type: 'email' }];

beforeAll(async () => {
  owner = await t.signup();
  ({ key } = await t.createKey(owner.token, owner.workspaceId));
  const form = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Limits', schema: SCHEMA } });
  formId = form.json.id;
});

let counter = 0;
const freshEmail = () => `limits${++counter}-${Date.now()}@example.com`;

/** An address of exactly `length` characters. */
function emailOfLength(length: number): string {
  const domain = `@x${++counter}.example.com`;
  return `${'a'.repeat(length - domain.length)}${domain}`;
}

/** Text of exactly `length` characters, mixing plain letters and astral ones (two UTF-16 units each). */
function textOfLength(length: number, astral = false): string {
  return Array.from({ length }, (_, i) => (astral && i % 2 === 0 ? '🦊' : 'x')).join('');
}

const codePoints = (value: string) => Array.from(value).length;

function expectInvalid(res: Res, path: string, what: string) {
  const label = `${what} → ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.status, label).toBe(400);
  expect(res.json.error.code, label).toBe('invalid_request');
  expect(
    res.json.error.details.map((d: { path: string }) => d.path),
    label,
  ).toContain(path);
}

interface Limited {
  what: string;
  max: number;
  path: string;
  /** A value of `length` characters for this field. */
  value(length: number): string;
  send(value: string): Promise<Res>;
  /** The value as stored after a successful send. */
  stored(res: Res): Promise<string>;
}

const storedColumn = async (table: string, column: string, id: string) =>
  (await t.sql<Record<string, string>>(`select ${column} as v from ${table} where id = ?`, [id]))[0]!.v!;

const LIMITED: Limited[] = [
  {
    what: 'sign-up name',
    max: 100,
    path: 'name',
    value: (n) => textOfLength(n, true),
    send: (v) => t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: PASSWORD, name: v } }),
    stored: (res) => storedColumn('users', 'name', res.json.user.id),
  },
  {
    what: 'sign-up email',
    max: 254,
    path: 'email',
    value: emailOfLength,
    send: (v) => t.request('POST', '/v1/auth/signup', { body: { email: v, password: PASSWORD } }),
    stored: (res) => storedColumn('users', 'email', res.json.user.id),
  },
  {
    what: 'workspace name',
    max: 100,
    path: 'name',
    value: (n) => textOfLength(n, true),
    send: (v) => t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: v } }),
    stored: (res) => storedColumn('workspaces', 'name', res.json.id),
  },
  {
    what: 'project name',
    max: 100,
    path: 'name',
    value: (n) => textOfLength(n, true),
    send: (v) => t.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, { token: owner.token, body: { name: v } }),
    stored: (res) => storedColumn('projects', 'name', res.json.id),
  },
  {
    what: 'API key name',
    max: 64,
    path: 'name',
    value: (n) => textOfLength(n, true),
    send: async (v) => {
      const res = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: { name: v } });
      // Keep the workspace under its 10 active keys.
      if (res.status === 201) await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${res.json.id}`, { token: owner.token });
      return res;
    },
    stored: (res) => storedColumn('api_keys', 'name', res.json.id),
  },
  {
    what: 'form name (create)',
    max: 200,
    path: 'name',
    value: (n) => textOfLength(n, true),
    send: (v) => t.request('POST', '/v1/forms', { token: key, body: { name: v, schema: SCHEMA } }),
    stored: (res) => storedColumn('forms', 'name', res.json.id),
  },
  {
    what: 'form name (PATCH)',
    max: 200,
    path: 'name',
    value: (n) => textOfLength(n, true),
    send: (v) => t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { name: v } }),
    stored: (res) => storedColumn('forms', 'name', res.json.id),
  },
  {
    what: 'notify_email',
    max: 254,
    path: 'notify_email',
    value: emailOfLength,
    send: (v) => t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { notify_email: v } }),
    // Kept in the form's list of addresses, and as an email's "to" (254 characters).
    stored: (res) => storedColumn('forms', "notify_emails->0->>'email'", res.json.id),
  },
  {
    what: 'redirect_url',
    max: 2048,
    path: 'redirect_url',
    value: (n) => `https://example.com/${'p'.repeat(n - 'https://example.com/'.length)}`,
    send: (v) => t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { redirect_url: v } }),
    stored: (res) => storedColumn('forms', 'redirect_url', res.json.id),
  },
];

describe('every stored string: the longest is taken whole, one more character is a 400', () => {
  for (const field of LIMITED) {
    it(`${field.what}: ${field.max} taken, ${field.max + 1} refused`, async () => {
      const longest = field.value(field.max);
      expect(codePoints(longest)).toBe(field.max);
      const taken = await field.send(longest);
      expect(taken.status, `${field.what} ${field.max} → ${taken.body.slice(0, 300)}`).toBeLessThan(300);
      expect(await field.stored(taken)).toBe(longest);
      const tooLong = field.value(field.max + 1);
      expect(codePoints(tooLong)).toBe(field.max + 1);
      expectInvalid(await field.send(tooLong), field.path, `${field.what} ${field.max + 1}`);
    });
  }

  it('field labels and select options: 200 characters taken, 201 refused', async () => {
    const at = (n: number) => textOfLength(n, true);
    const withLabel = (label: string) => t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: 'a', type: 'text', label }] } });
    const withOption = (option: string) =>
      t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: 'a', type: 'select', options: [option] }] } });
    const label = await withLabel(at(200));
    expect(label.status, label.body.slice(0, 300)).toBe(201);
    expect(label.json.schema[0].label).toBe(at(200));
    const option = await withOption(at(200));
    expect(option.status, option.body.slice(0, 300)).toBe(201);
    expect(option.json.schema[0].options).toEqual([at(200)]);
    expectInvalid(await withLabel(at(201)), 'schema.0.label', 'label 201');
    expectInvalid(await withOption(at(201)), 'schema.0.options.0', 'option 201');
  });
});

describe('derived values fit their columns', () => {
  it('a sign-up name of 89 to 100 characters: 201, and the workspace name derived from it fits', async () => {
    for (const length of [88, 89, 90, 95, 99, 100]) {
      for (const astral of [false, true]) {
        const name = textOfLength(length, astral);
        const res = await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: PASSWORD, name } });
        expect(res.status, `${length}${astral ? ' astral' : ''} → ${res.body.slice(0, 300)}`).toBe(201);
        const stored = await storedColumn('workspaces', 'name', res.json.workspace.id);
        expect(stored).toBe(res.json.workspace.name);
        expect(codePoints(stored)).toBeLessThanOrEqual(100);
        expect(stored.isWellFormed()).toBe(true);
        expect(stored.endsWith("'s workspace")).toBe(true);
        // As much of the name as fits, and all of it when it fits.
        expect(name.startsWith(stored.slice(0, -"'s workspace".length).trimEnd())).toBe(true);
        if (length <= 88) expect(stored).toBe(`${name}'s workspace`);
      }
    }
  });

  it('an Idempotency-Key from a client whose (forwarded) address is long: 201, then replayed', async () => {
    const headers = { 'idempotency-key': 'long-address', 'x-forwarded-for': `2001:db8::${'f'.repeat(200)}` };
    const body = { name: 'Anonymous', schema: SCHEMA, notify_email: 'anon@example.com' };
    const first = await t.request('POST', '/v1/forms', { body, headers });
    expect(first.status, first.body.slice(0, 300)).toBe(201);
    const again = await t.request('POST', '/v1/forms', { body, headers });
    expect(again.status, again.body.slice(0, 300)).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json.id).toBe(first.json.id);
  });
});
