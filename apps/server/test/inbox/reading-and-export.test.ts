/**
 * Reading a form's inbox: the list's filters (status, time, text), counts in the forms list, and the
 * export as CSV or JSON Lines, which a spreadsheet opens safely whatever the values hold.
 */
import { expectError, PASSWORD, submit } from '@lfk/server/testing';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { inboxForm, key, owner, post, useClockedServer, VALID } from './fixtures.ts';

let clock = new Date('2026-11-25T12:00:00Z');
const t = useClockedServer(() => clock);

const tick = () => {
  clock = new Date(clock.getTime() + 60_000);
  return clock.toISOString();
};
const list = (formId: string, query: string) => t.request('GET', `/v1/forms/${formId}/submissions?${query}`, { token: owner.token });
const names = (res: { json: { data: { data: { name: string } }[] } }) => res.json.data.map((s) => s.data.name);
/**
 * An export, as a member who has just confirmed who they are (sudo mode): this file's clock runs a
 * minute a submission, so its sessions are soon older than the sudo window.
 */
async function exportOf(formId: string, query = '', token = owner.token) {
  const confirmed = await t.request('POST', '/v1/auth/reauthenticate', { token, body: { password: PASSWORD } });
  if (confirmed.status !== 204) throw new Error(`reauthentication failed: ${confirmed.status} ${confirmed.body}`);
  return t.request('GET', `/v1/forms/${formId}/submissions/export?${query}`, { token });
}

describe('filters on the list', () => {
  it('by status, time and text (any value, any case; % and _ are themselves)', async () => {
    const form = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    const at: string[] = [];
    for (const [name, message] of [
      ['Ada', 'Loves 100% cotton'],
      ['Grace', 'cobol_fan'],
      ['Linus', 'kernel'],
      ['Bot', 'spam'],
    ]) {
      at.push(tick());
      await post(t, form.id, { ...VALID, name, message, ...(name === 'Bot' ? { _gotcha: 'x' } : {}) });
    }
    expect(names(await list(form.id, ''))).toEqual(['Linus', 'Grace', 'Ada']);
    expect(names(await list(form.id, 'status=spam'))).toEqual(['Bot']);
    expect(names(await list(form.id, `since=${encodeURIComponent(at[1]!)}`))).toEqual(['Linus', 'Grace']);
    expect(names(await list(form.id, `until=${encodeURIComponent(at[1]!)}`))).toEqual(['Ada']);
    expect(names(await list(form.id, `since=${encodeURIComponent(at[0]!)}&until=${encodeURIComponent(at[2]!)}`))).toEqual(['Grace', 'Ada']);
    expect(names(await list(form.id, 'q=GRACE'))).toEqual(['Grace']);
    expect(names(await list(form.id, 'q=100%25'))).toEqual(['Ada']);
    expect(names(await list(form.id, 'q=_'))).toEqual(['Grace']);
    expect(names(await list(form.id, 'q=%25'))).toEqual(['Ada']);
    // Field names are not values: every submission has an `email` field.
    expect(names(await list(form.id, 'q=email'))).toEqual([]);
    expect(names(await list(form.id, 'q=example.com&limit=1'))).toEqual(['Linus']);
    const page = await list(form.id, 'q=example.com&limit=1');
    expect(names(await list(form.id, `q=example.com&limit=5&cursor=${page.json.next_cursor}`))).toEqual(['Grace', 'Ada']);
  });

  it('refuses a filter that cannot be read', async () => {
    const form = await inboxForm(t, owner);
    for (const [query, path] of [
      ['status=deleted', 'status'],
      ['since=yesterday', 'since'],
      ['until=2026-13-01T00:00:00Z', 'until'],
      ['since=0000-01-01T00:00:00Z', 'since'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=', 'q'],
      ['q=%0a', 'q'],
    ]) {
      const error = expectError(await list(form.id, query!), 400, 'invalid_request');
      expect(error.details?.[0]?.path, query).toBe(path);
    }
  });
});

describe('the forms list', () => {
  it('shows each form’s submission count and last submission time; spam is not counted', async () => {
    const busy = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    const quiet = await inboxForm(t, owner);
    tick();
    await post(t, busy.id);
    const last = tick();
    await post(t, busy.id);
    tick();
    await post(t, busy.id, { ...VALID, _gotcha: 'bot' });
    const res = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms`, { token: owner.token });
    const byId = Object.fromEntries(res.json.data.map((f: { id: string }) => [f.id, f]));
    expect(byId[busy.id]).toMatchObject({ submission_count: 2, last_submission_at: last });
    expect(byId[quiet.id]).toMatchObject({ submission_count: 0, last_submission_at: null });
  });
});

const EVERY_TYPE = [
  { name: 'text', type: 'text' },
  { name: 'note', type: 'textarea' },
  { name: 'email', type: 'email' },
  { name: 'count', type: 'number' },
  { name: 'site', type: 'url' },
  { name: 'phone', type: 'tel' },
  { name: 'day', type: 'date' },
  { name: 'ok', type: 'checkbox' },
  { name: 'size', type: 'select', options: ['S', 'M'] },
];

describe('the export', () => {
  it('CSV: a column per field after id, created_at and via, oldest first, every type, every hostile value safe', async () => {
    const form = await inboxForm(t, owner, { schema: EVERY_TYPE });
    const hostile = [
      { text: '=HYPERLINK("http://evil.example","click")', note: 'line one\nline "two", with a comma', count: -5, ok: true, size: 'S' },
      { text: '+1', note: '\tstarts with a tab', email: 'a@example.com', count: 3.5, ok: false, day: '2026-01-31' },
      { text: '@SUM(A1:A2)', note: '\rstarts with a return', site: 'https://example.com/?a=1,b=2', phone: '+1 555 0100' },
      { text: '-2+3', note: 'שלום \u202Eevil\u202C عربى' },
      { text: 'plain', note: 'a bare\nline feed' },
    ];
    const ids: string[] = [];
    for (const values of hostile) {
      tick();
      const res = await submit(t, form.id, values, { token: key });
      expect(res.status, res.body).toBe(201);
      ids.push(res.json.id);
    }
    const res = await exportOf(form.id);
    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${form.id}-submissions.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.startsWith('\uFEFF')).toBe(false);
    const rows: string[][] = parse(res.body, { relax_column_count: false });
    expect(rows[0]).toEqual(['id', 'created_at', 'via', ...EVERY_TYPE.map((f) => f.name)]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(ids);
    const [first, second, third, fourth, fifth] = rows.slice(1);
    expect(first!.slice(1, 3)).toEqual([expect.stringMatching(/^2026-11-25T/), 'api_key']);
    // Formulas, and cells starting with a sign, a tab or a return, are prefixed with ' so nothing runs.
    expect(first![3]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(first![4]).toBe('line one\nline "two", with a comma');
    // A number field's value is a number, which no spreadsheet runs: written as is.
    expect(first![6]).toBe('-5');
    expect(first![10]).toBe('true');
    expect(second![3]).toBe("'+1");
    expect(second![4]).toBe("'\tstarts with a tab");
    expect(second![6]).toBe('3.5');
    expect(second![10]).toBe('false');
    expect(third![3]).toBe("'@SUM(A1:A2)");
    expect(third![4]).toBe("'\rstarts with a return");
    expect(third![7]).toBe('https://example.com/?a=1,b=2');
    expect(third![8]).toBe("'+1 555 0100");
    expect(fourth![3]).toBe("'-2+3");
    expect(fourth![4]).toBe('שלום \u202Eevil\u202C عربى');
    // A line feed alone is quoted too: a spreadsheet would end the row there.
    expect(fifth![4]).toBe('a bare\nline feed');
    expect(res.body).toContain('"a bare\nline feed"');
    // Records end with CRLF, as spreadsheets expect; line breaks inside a value stay as they were.
    expect(res.body.endsWith('\r\n')).toBe(true);

    const bom = await exportOf(form.id, 'bom=true');
    expect(bom.body.startsWith('\uFEFFid,created_at,via,')).toBe(true);
  });

  it('JSON Lines: every value as stored, one object per line', async () => {
    const form = await inboxForm(t, owner, { schema: EVERY_TYPE });
    const values = { text: '=1+1', note: 'a\nb', count: 7, ok: true };
    const id = (await submit(t, form.id, values, { token: key })).json.id;
    const res = await exportOf(form.id, 'format=jsonl');
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${form.id}-submissions.jsonl"`);
    const lines = res.body.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l))).toEqual([
      { id, created_at: expect.any(String), via: 'api_key', status: 'ok', values: { ...values }, files: [] },
    ]);
  });

  it('a form with no submissions: a header alone, or an empty file; the filters apply', async () => {
    const form = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    expect((await exportOf(form.id)).body).toBe('id,created_at,via,name,email,message\r\n');
    expect((await exportOf(form.id, 'format=jsonl')).body).toBe('');
    await post(t, form.id, { ...VALID, name: 'Real' });
    await post(t, form.id, { ...VALID, name: 'Bot', _gotcha: 'x' });
    const spam: string[][] = parse((await exportOf(form.id, 'status=spam')).body);
    expect(spam.slice(1).map((r) => r[3])).toEqual(['Bot']);
    const found: string[][] = parse((await exportOf(form.id, 'q=real')).body);
    expect(found.slice(1).map((r) => r[3])).toEqual(['Real']);
  });

  it('more rows than one batch, in order, each once', async () => {
    const form = await inboxForm(t, owner);
    await t.sql(
      "insert into submissions (id, form_id, data, source, status, created_at) select 'sub_' || lpad(to_hex(g), 26, '0'), ?, " +
        "json_build_object('name', 'n' || g, 'email', 'x@example.com'), 'browser', 'ok', now() from generate_series(1, 1234) g",
      [form.id],
    );
    const rows: string[][] = parse((await exportOf(form.id)).body);
    expect(rows).toHaveLength(1235);
    expect(rows.slice(1).map((r) => r[3])).toEqual(Array.from({ length: 1234 }, (_, i) => `n${i + 1}`));
  });

  it('members’ sessions only; a bad format or filter is refused before any byte; over tRPC it is refused', async () => {
    const form = await inboxForm(t, owner);
    expectError(await t.request('GET', `/v1/forms/${form.id}/submissions/export`, { token: key }), 403, 'session_required');
    expectError(await exportOf(form.id, 'format=xlsx'), 400, 'invalid_request');
    expectError(await exportOf(form.id, 'bom=maybe'), 400, 'invalid_request');
    expectError(await exportOf(form.id, 'since=never'), 400, 'invalid_request');
    // A valid ISO time no database takes: refused as JSON before any byte, never a 200 cut short.
    expectError(await exportOf(form.id, 'until=0000-06-01T00:00:00Z'), 400, 'invalid_request');
    const outsider = await t.signup();
    expectError(await exportOf(form.id, '', outsider.token), 404, 'form_not_found');
    const trpc = await t.request('GET', `/trpc/submissions.export?input=${encodeURIComponent(JSON.stringify({ form_id: form.id }))}`, { token: owner.token });
    expect(trpc.status).toBe(415);
    expect(trpc.json.error.data.code).toBe('unsupported_media_type');
    expect(trpc.json.error.message).toContain('/v1/forms/{form_id}/submissions/export');
  });
});
