/**
 * One line where one line is meant: every single-line string the API stores (names, labels,
 * options, emails, key, workspace and project names) refuses C0/C1 control characters, DEL and
 * line separators with 400 `invalid_request` naming the field. In submissions, single-line field
 * types refuse them with 422 `validation_failed`; a textarea takes `\n`, `\r` and `\t` only. And
 * whatever is stored, an email subject is one line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, PASSWORD, type Res, useTestServer } from '@lfk/server/testing';

const t = useTestServer();
let owner: Account;
let stranger: Account;
let key: string;

const ORIGIN = 'https://site.example';

beforeAll(async () => {
  owner = await t.signup();
  stranger = await t.signup();
  ({ key } = await t.createKey(owner.token, owner.workspaceId));
});

/** Each kind of line break or control character a one-line value must not hold. */
const BREAKS: [string, string][] = [
  ['CR LF', '\r\n'],
  ['LF', '\n'],
  ['CR', '\r'],
  ['tab', '\t'],
  ['ESC', '\u001b'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['C1 CSI', '\u009b'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
];

/** `sample` with each break inside it, after it and before it (where trimming once hid it). */
function hostile(sample: string): [string, string][] {
  return BREAKS.flatMap(([kind, brk]) => [
    [`${kind} inside`, `${sample.slice(0, 2)}${brk}${sample.slice(2)}`],
    [`${kind} after`, `${sample}${brk}`],
    [`${kind} before`, `${brk}${sample}`],
  ]);
}

function expectInvalid(res: Res, path: string, what: string) {
  const label = `${what} → ${res.status} ${res.body.slice(0, 300)}`;
  expect(res.status, label).toBe(400);
  expect(res.json.error.code, label).toBe('invalid_request');
  expect(res.json.error.request_id, label).toBe(res.headers['x-request-id']);
  expect(
    res.json.error.details.map((d: { path: string }) => d.path),
    label,
  ).toContain(path);
}

const SCHEMA = [{ name: 'email', type: 'email' }];

/** Every stored single-line string: what it is, its details path, a valid value, a request storing a value. */
const SINGLE_LINE_FIELDS: [string, string, string | (() => string), (value: string) => Promise<Res>][] = [
  ['form name (POST /v1/forms)', 'name', 'Contact', (v) => t.request('POST', '/v1/forms', { token: key, body: { name: v, schema: SCHEMA } })],
  [
    'form name (tRPC forms.create)',
    'name',
    'Contact',
    (v) => t.request('POST', '/trpc/forms.create', { token: key, body: { name: v, schema: SCHEMA } }).then(trpcAsRest),
  ],
  [
    'field label',
    'schema.0.label',
    'Your email',
    (v) => t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: 'a', type: 'text', label: v }] } }),
  ],
  [
    'select option',
    'schema.0.options.0',
    'Pro plan',
    (v) => t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: 'a', type: 'select', options: [v] }] } }),
  ],
  [
    'notify_email',
    'notify_email',
    'notify@example.com',
    (v) => t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: SCHEMA, notify_email: v } }),
  ],
  [
    'sign-up name',
    'name',
    'Ada Lovelace',
    (v) => t.request('POST', '/v1/auth/signup', { body: { email: `n${Date.now()}@example.com`, password: PASSWORD, name: v } }),
  ],
  ['sign-up email', 'email', 'newcomer@example.com', (v) => t.request('POST', '/v1/auth/signup', { body: { email: v, password: PASSWORD } })],
  ['workspace name', 'name', 'Team', (v) => t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: v } })],
  ['project name', 'name', 'Website', (v) => t.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, { token: owner.token, body: { name: v } })],
  ['API key name', 'name', 'deploy', (v) => t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: { name: v } })],
  [
    'member email',
    'email',
    () => stranger.email,
    (v) => t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: v } }),
  ],
];

/** tRPC's `{ error: { data } }` read as REST's `{ error }`, status included. */
function trpcAsRest(res: Res): Res {
  if (!res.json?.error) return res;
  const { httpStatus: _status, ...error } = res.json.error.data;
  return { ...res, json: { error } };
}

describe('single-line strings the API stores refuse control characters and line breaks', () => {
  for (const [what, path, sample, send] of SINGLE_LINE_FIELDS) {
    it(`${what} → 400 naming ${path}`, async () => {
      const failures: string[] = [];
      for (const [kind, value] of hostile(typeof sample === 'function' ? sample() : sample)) {
        try {
          expectInvalid(await send(value), path, `${what} with ${kind}`);
        } catch (error) {
          failures.push(String((error as Error).message).split('\n')[0]!);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('PATCH of a form name with CR/LF → 400, and the stored name is unchanged', async () => {
    const created = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Contact', schema: SCHEMA } });
    expect(created.status, created.body).toBe(201);
    expectInvalid(
      await t.request('PATCH', `/v1/forms/${created.json.id}`, { token: key, body: { name: 'Contact\r\nBcc: x@example.com' } }),
      'name',
      'PATCH name',
    );
    const [row] = await t.sql<{ name: string }>('select name from forms where id = ?', [created.json.id]);
    expect(row!.name).toBe('Contact');
  });

  it('plain unicode, inner spaces and bidi marks are still taken as sent', async () => {
    const name = 'Contact — お問い合わせ 📨 \u202eok';
    const res = await t.request('POST', '/v1/forms', { token: key, body: { name, schema: SCHEMA } });
    expect(res.status, res.body).toBe(201);
    expect(res.json.name).toBe(name);
  });
});

describe('submission values: one line for single-line fields, text for a textarea', () => {
  let formId: string;
  const TYPES = ['text', 'email', 'tel', 'url', 'number', 'date', 'select'] as const;
  /** A valid value per type, into which the hostile character is put. */
  const VALID: Record<(typeof TYPES)[number], string> = {
    text: 'hello',
    email: 'ada@example.com',
    tel: '+44 20 7946 0000',
    url: 'https://example.com/x',
    number: '42',
    date: '2026-11-22',
    select: 'pro',
  };

  beforeAll(async () => {
    const schema = [
      ...TYPES.map((type) => ({ name: type, type, ...(type === 'select' ? { options: ['free', 'pro'] } : {}) })),
      { name: 'message', type: 'textarea' },
    ];
    const res = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Types', schema, allowed_origins: [ORIGIN] } });
    expect(res.status, res.body).toBe(201);
    formId = res.json.id;
  });

  const submit = (data: Record<string, unknown>) => t.request('POST', `/v1/forms/${formId}/submissions`, { body: data, headers: { origin: ORIGIN } });

  it('each single-line type refuses a control character or line break anywhere, with 422 naming the field', async () => {
    const failures: string[] = [];
    for (const type of TYPES) {
      const valid = VALID[type];
      for (const [kind, bad] of [
        ['leading LF', `\n${valid}`],
        ['trailing CR LF', `${valid}\r\n`],
        ['inner tab', `${valid.slice(0, 2)}\t${valid.slice(2)}`],
        ['trailing ESC', `${valid}\u001b`],
        ['C1', `${valid}\u0085`],
        ['DEL', `${valid}\u007f`],
      ] as const) {
        const res = await submit({ [type]: bad });
        const label = `${type} with ${kind} → ${res.status} ${res.body.slice(0, 300)}`;
        if (
          res.status !== 422 ||
          res.json.error.code !== 'validation_failed' ||
          JSON.stringify(res.json.error.details.map((d: { path: string }) => d.path)) !== JSON.stringify([type])
        ) {
          failures.push(label);
        }
      }
      const ok = await submit({ [type]: valid });
      if (ok.status !== 201) failures.push(`${type} plain → ${ok.status} ${ok.body.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });

  it('a textarea takes \\n, \\r and \\t, stored exactly', async () => {
    const message = 'line one\r\nline two\n\tindented\rend';
    const res = await submit({ message });
    expect(res.status, res.body).toBe(201);
    const [row] = await t.sql<{ data: unknown }>('select data from submissions where id = ?', [res.json.id]);
    const data = typeof row!.data === 'string' ? JSON.parse(row!.data) : row!.data;
    expect(data).toEqual({ message });
  });

  it('a textarea refuses every other control character with 422', async () => {
    const failures: string[] = [];
    for (const bad of ['\u001b[2J', 'bell\u0007', 'v\u000bt', 'f\u000ct', 'del\u007f', 'nel\u0085', 'csi\u009b31m']) {
      const res = await submit({ message: `text ${bad}` });
      if (res.status !== 422 || res.json.error.code !== 'validation_failed' || res.json.error.details[0]?.path !== 'message') {
        failures.push(`${JSON.stringify(bad)} → ${res.status} ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the same rule over tRPC: 422 validation_failed', async () => {
    const res = await t.request('POST', '/trpc/submissions.create', {
      body: { form_id: formId, data: { text: 'a\r\nb' } },
      headers: { origin: ORIGIN },
    });
    expect(res.status, res.body).toBe(422);
    expect(res.json.error.data.code).toBe('validation_failed');
    expect(res.json.error.data.details).toEqual([{ path: 'text', message: expect.any(String) }]);
  });
});

describe('an email subject is one line, whatever is stored', () => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
  /** A name stored by an older version (or a database edit), which today's rules would refuse. */
  const STORED = 'Contact\r\nBcc: victim@example.com\u2028X-Evil: 1\u0085Y';

  async function formWithStoredName(notifyVerified: boolean) {
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Plain', schema: [{ name: 'message', type: 'textarea' }], allowed_origins: [ORIGIN] },
    });
    expect(created.status, created.body).toBe(201);
    await t.sql(
      `update forms set name = ?, notify_emails = ` +
        `${notifyVerified ? "jsonb_build_array(jsonb_build_object('email', ?::text, 'verified', true))" : "'[]'"} where id = ?`,
      [STORED, ...(notifyVerified ? [`verified-${created.json.id}@example.com`] : []), created.json.id],
    );
    return created.json.id as string;
  }

  async function subjectsTo(to: string): Promise<string[]> {
    const rows = await t.sql<{ subject: string }>('select subject from outbox_emails where "to" = ?', [to]);
    return rows.map((r) => r.subject);
  }

  it('the verification email of a form whose stored name holds line breaks', async () => {
    const formId = await formWithStoredName(false);
    const to = `verify-${formId}@example.com`;
    const res = await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { notify_email: to } });
    expect(res.status, res.body).toBe(200);
    const subjects = await subjectsTo(to);
    expect(subjects).toHaveLength(1);
    expect(subjects[0]).not.toMatch(NOT_ONE_LINE);
    expect(subjects[0]).toContain('Contact Bcc: victim@example.com X-Evil: 1 Y');
  });

  it('the submission notification of such a form', async () => {
    const formId = await formWithStoredName(true);
    const res = await t.request('POST', `/v1/forms/${formId}/submissions`, { body: { message: 'hi' }, headers: { origin: ORIGIN } });
    expect(res.status, res.body).toBe(201);
    const subjects = await subjectsTo(`verified-${formId}@example.com`);
    expect(subjects).toHaveLength(1);
    expect(subjects[0]).not.toMatch(NOT_ONE_LINE);
    expect(subjects[0]).toContain('Contact Bcc: victim@example.com X-Evil: 1 Y');
  });
});
