/**
 * Hostile input, strings: what is refused, and what is kept exactly.
 */
import { describe, expect, it } from 'vitest';
import { expectDocumentedError, PASSWORD } from '@lfk/server/testing';
import { BAD_TEXT, everyCase, expectInvalid, freshEmail, key, owner, t, useWorld } from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Strings: what is refused, and what is kept exactly.
// ---------------------------------------------------------------------------------------------

describe('strings', () => {
  it('NUL, control characters and lone surrogates in labels, options and field names → 400', async () => {
    await everyCase(
      BAD_TEXT.filter((s) => s.trim() !== ''),
      async (bad) => {
        const what = JSON.stringify(bad);
        expectInvalid(
          await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: 'a', type: 'text', label: bad }] } }),
          'schema.0.label',
          `label ${what}`,
        );
        expectInvalid(
          await t.request('POST', '/v1/forms', {
            token: key,
            body: { name: 'F', schema: [{ name: 'a', type: 'select', options: ['ok', bad] }] },
          }),
          'schema.0.options.1',
          `option ${what}`,
        );
        expectInvalid(
          await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: `a${bad}`, type: 'text' }] } }),
          'schema.0.name',
          `field name ${what}`,
        );
      },
    );
  });

  it('field names must start with a letter and hold only letters, digits, _ and -', async () => {
    await everyCase(['1a', '_a', '-a', 'a b', 'a.b', 'a/b', 'é', 'a😀', '', 'a\u0000'], async (name) => {
      expectInvalid(
        await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name, type: 'text' }] } }),
        'schema.0.name',
        JSON.stringify(name),
      );
    });
  });

  it('a NUL in an email or password is a 400 (or a failed login), never a 500', async () => {
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: 'a\u0000b@example.com', password: PASSWORD } }), 'email');
    const signup = await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: `${PASSWORD}\u0000` } });
    expect(signup.status, signup.body).not.toBe(500);
    const login = await t.request('POST', '/v1/auth/login', { body: { email: `${owner.email}\u0000`, password: PASSWORD } });
    expect([400, 401], login.body).toContain(login.status);
    expectDocumentedError(login, login.status, login.status === 400 ? 'invalid_request' : 'invalid_credentials');
  });

  const UNICODE = {
    workspace: '🦊 Füchse — 狐狸の会 — שועלים ومرحبا 👩‍👩‍👧‍👦 Ǆ',
    key: '🔑 clé — 鍵 — مفتاح — 𝔘𝔫𝔦',
    form: 'Contact — お問い合わせ — اتصل بنا 📨 — Ελληνικά — 한국어',
    label: 'البريد الإلكتروني — 電子メール ✉️',
    options: ['是', 'Nein ❌', 'כן', '🇫🇷', 'e\u0301 (combining)', 'ﷺ'],
    person: 'Zoë 王 محمد 🧑🏽‍💻',
  };

  it('valid unicode (emoji, CJK, RTL, combining marks) in a workspace name is stored and returned exactly', async () => {
    const created = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: UNICODE.workspace } });
    expect(created.status, created.body).toBe(201);
    expect(created.json.name).toBe(UNICODE.workspace);
    const list = await t.request('GET', '/v1/workspaces?limit=100', { token: owner.token });
    expect(list.json.data.find((w: { id: string }) => w.id === created.json.id)?.name).toBe(UNICODE.workspace);
    const rows = await t.sql<{ name: string }>('select name from workspaces where id = ?', [created.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.workspace);
    expect(Buffer.from(rows[0]!.name, 'utf8').equals(Buffer.from(UNICODE.workspace, 'utf8'))).toBe(true);
  });

  it('valid unicode in a key name is stored and returned exactly', async () => {
    const ws = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'unicode keys' } });
    const created = await t.request('POST', `/v1/workspaces/${ws.json.id}/api-keys`, {
      token: owner.token,
      body: { name: UNICODE.key },
    });
    expect(created.status, created.body).toBe(201);
    expect(created.json.name).toBe(UNICODE.key);
    const list = await t.request('GET', `/v1/workspaces/${ws.json.id}/api-keys`, { token: owner.token });
    expect(list.json.data[0].name).toBe(UNICODE.key);
    const rows = await t.sql<{ name: string }>('select name from api_keys where id = ?', [created.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.key);
  });

  it('valid unicode in form names, labels and options is stored and returned exactly', async () => {
    const schema = [
      { name: 'email', type: 'email', required: true, label: UNICODE.label },
      { name: 'answer', type: 'select', required: false, options: UNICODE.options },
    ];
    const created = await t.request('POST', '/v1/forms', { token: key, body: { name: UNICODE.form, schema } });
    expect(created.status, created.body).toBe(201);
    expect(created.json.name).toBe(UNICODE.form);
    expect(created.json.schema).toEqual(schema);
    const read = await t.request('GET', `/v1/forms/${created.json.id}`, { token: key });
    expect(read.json.name).toBe(UNICODE.form);
    expect(read.json.schema).toEqual(schema);
    const rows = await t.sql<{ name: string }>('select name from forms where id = ?', [created.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.form);
    const raw = await t.sql<{ schema: string }>('select schema::text as schema from forms where id = ?', [created.json.id]);
    expect(JSON.parse(raw[0]!.schema)).toEqual(schema);

    const renamed = `${UNICODE.form} ✅`;
    const updated = await t.request('PATCH', `/v1/forms/${created.json.id}`, { token: key, body: { name: renamed } });
    expect(updated.status, updated.body).toBe(200);
    expect((await t.request('GET', `/v1/forms/${created.json.id}`, { token: key })).json.name).toBe(renamed);
    expect((await t.sql<{ name: string }>('select name from forms where id = ?', [created.json.id]))[0]!.name).toBe(renamed);
  });

  it('valid unicode in a person’s name and a project name is stored and returned exactly', async () => {
    const signup = await t.request('POST', '/v1/auth/signup', {
      body: { email: freshEmail(), password: PASSWORD, name: UNICODE.person },
    });
    expect(signup.status, signup.body).toBe(201);
    const session = await t.request('GET', '/v1/auth/session', { token: signup.json.session_token });
    expect(session.json.user.name).toBe(UNICODE.person);
    const users = await t.sql<{ name: string }>('select name from users where id = ?', [signup.json.user.id]);
    expect(users[0]!.name).toBe(UNICODE.person);

    const project = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, {
      token: owner.token,
      body: { name: UNICODE.workspace },
    });
    expect(project.status, project.body).toBe(201);
    const projects = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/projects?limit=100`, { token: owner.token });
    expect(projects.json.data.find((p: { id: string }) => p.id === project.json.id)?.name).toBe(UNICODE.workspace);
    const rows = await t.sql<{ name: string }>('select name from projects where id = ?', [project.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.workspace);
  });

  it('surrounding whitespace is trimmed; inner whitespace is kept', async () => {
    const res = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: '  a  b  ' } });
    expect(res.status, res.body).toBe(201);
    expect(res.json.name).toBe('a  b');
  });
});
