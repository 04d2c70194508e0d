/**
 * Issue 41: what a form does with a submitted field its schema does not name (`unknown_fields`):
 * refuse the submission (the default of a form made over the API), keep it as text after the
 * form's own fields (shown, exported, emailed), or drop it.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { emailsSentTo, expectError, ORIGIN, until } from '@lfk/server/testing';
import { countRows, createForm, expectCreated, owner, postForm, storedRows, submit, t, useWorld } from './fixtures.ts';

useWorld();

const contact = { name: 'Ada', email: 'ada@example.com' };
/** What the contact form stores besides: its unticked checkbox. */
const unticked = { agree: false };
const patch = (formId: string, body: Record<string, unknown>) => t.request('PATCH', `/v1/forms/${formId}`, { token: owner.token, body });

describe('a form made over the API', () => {
  it('refuses a field it does not name, as before, and says so on the form', async () => {
    const form = await createForm();
    expect(form.unknown_fields).toBe('reject');
    const res = await submit(form.id, { ...contact, phone: '+44 20 7946 0958' }, { origin: ORIGIN });
    expectError(res, 422, 'validation_failed');
    expect(res.json.error.details).toEqual([{ path: 'phone', message: 'Unknown field.' }]);
    expect(await countRows(form.id)).toBe(0);
  });
});

describe('unknown_fields: keep', () => {
  it('stores each as text after the form’s own values, from JSON and from an HTML form alike', async () => {
    const form = await createForm({ unknown_fields: 'keep' });
    expect(form.unknown_fields).toBe('keep');
    expectCreated(
      await submit(form.id, { ...contact, phone: '+44 20 7946 0958', utm_campaign: 'spring', count: 3, opted: true, blank: '' }, { origin: ORIGIN }),
      form.id,
    );
    expectCreated(await postForm(form.id, 'name=Grace&email=grace%40example.com&company=Navy&notes=line+one%0D%0Aline+two'), form.id);
    const rows = await storedRows(form.id);
    expect(rows.map((r) => r.data)).toEqual([
      // A blank one is left out, as a blank optional field is.
      { ...contact, ...unticked, phone: '+44 20 7946 0958', utm_campaign: 'spring', count: '3', opted: 'true' },
      { name: 'Grace', email: 'grace@example.com', ...unticked, company: 'Navy', notes: 'line one\r\nline two' },
    ]);
    const one = await t.request('GET', `/v1/forms/${form.id}/submissions/${rows[0]!.id}`, { token: owner.token });
    expect(one.json.data).toMatchObject({ phone: '+44 20 7946 0958', utm_campaign: 'spring' });
  });

  it('refuses, naming each, a kept field that is not one value, holds control characters or has a name too long to keep', async () => {
    const form = await createForm({ unknown_fields: 'keep' });
    const long = 'x'.repeat(101);
    const res = await submit(
      form.id,
      { ...contact, list: ['a', 'b'], object: { a: 1 }, bell: 'ding\u0007', [long]: 'v', 'nul\u0000name': 'v' },
      { origin: ORIGIN },
    );
    expectError(res, 422, 'validation_failed');
    const details: { path: string; message: string }[] = res.json.error.details;
    expect(Object.fromEntries(details.map((d) => [d.path, d.message]))).toEqual({
      list: 'Must be a single value.',
      object: 'Must be a single value.',
      bell: 'Must not contain control characters other than tab and line breaks.',
      ['x'.repeat(100)]: 'Not a field of this form; to be kept, its name must be at most 100 characters.',
      'nul\u0000name': 'Not a field of this form; to be kept, its name must not contain control characters.',
    });
    expect(await countRows(form.id)).toBe(0);
  });

  it('keeps at most 100 such fields of one submission: more is refused as a whole', async () => {
    const form = await createForm({ unknown_fields: 'keep' });
    const extras = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`extra_${i}`, 'v']));
    const over = await submit(form.id, { ...contact, ...extras(101) }, { origin: ORIGIN });
    expectError(over, 422, 'validation_failed');
    expect(over.json.error.details).toEqual([{ path: '', message: 'At most 100 fields the form does not name are kept; this submission has 101.' }]);
    expectCreated(await submit(form.id, { ...contact, ...extras(100) }, { origin: ORIGIN }), form.id);
    expect(Object.keys((await storedRows(form.id))[0]!.data)).toHaveLength(103);
  });

  it('exports them: in CSV, one last column of `name: value` lines; in JSON Lines, with the other values', async () => {
    const form = await createForm({ unknown_fields: 'keep' });
    expectCreated(await submit(form.id, { ...contact, utm_source: 'news', phone: '=1+1' }, { origin: ORIGIN }), form.id);
    expectCreated(await submit(form.id, { name: 'Grace', email: 'grace@example.com' }, { origin: ORIGIN }), form.id);
    const csv = await t.request('GET', `/v1/forms/${form.id}/submissions/export?format=csv`, { token: owner.token });
    expect(csv.status).toBe(200);
    const [header, ...rows] = parse(csv.body.replace(/^\uFEFF/, '')) as string[][];
    expect(header).toEqual(['id', 'created_at', 'via', 'name', 'email', 'age', 'agree', 'other_fields']);
    // Oldest first; a value that would start a formula is made harmless in its cell as in any other.
    expect(rows.map((row) => row.at(-1))).toEqual(['phone: =1+1\nutm_source: news', '']);
    const jsonl = await t.request('GET', `/v1/forms/${form.id}/submissions/export?format=jsonl`, { token: owner.token });
    expect(JSON.parse(jsonl.body.split('\n')[0]!).values).toEqual({ ...contact, ...unticked, utm_source: 'news', phone: '=1+1' });
  });

  it('lists them in the notification email, after the form’s fields', async () => {
    const form = await createForm({ unknown_fields: 'keep', notify_email: owner.email });
    expect(form.notifications_to).toBe(owner.email);
    expectCreated(await submit(form.id, { ...contact, utm_source: 'news' }, { origin: ORIGIN }), form.id);
    const [email] = await until('the notification', () => {
      const sent = emailsSentTo(t, owner.email, 'submission');
      return sent.length > 0 ? sent : undefined;
    });
    expect(email!.text).toContain('\nname: Ada\nemail: ada@example.com\nage: (empty)\nagree: false\n\nFields the form does not name:\nutm_source: news\n');
  });
});

describe('unknown_fields: ignore', () => {
  it('drops them, whatever they hold, and stores the rest', async () => {
    const form = await createForm({ unknown_fields: 'ignore' });
    expectCreated(await submit(form.id, { ...contact, phone: '+44', nested: { a: [1] }, ['y'.repeat(500)]: 'v' }, { origin: ORIGIN }), form.id);
    expect((await storedRows(form.id)).map((r) => r.data)).toEqual([{ ...contact, ...unticked }]);
  });

  it('still checks the form’s own fields', async () => {
    const form = await createForm({ unknown_fields: 'ignore' });
    const res = await submit(form.id, { name: 'Ada', email: 'nope', phone: '+44' }, { origin: ORIGIN });
    expectError(res, 422, 'validation_failed');
    expect(res.json.error.details).toEqual([{ path: 'email', message: 'Must be an email address.' }]);
  });
});

describe('changing it', () => {
  it('applies to the next submission, and is audited as a change of unknown_fields', async () => {
    const form = await createForm();
    expectError(await submit(form.id, { ...contact, phone: '1' }, { origin: ORIGIN }), 422, 'validation_failed');
    const kept = await patch(form.id, { unknown_fields: 'keep' });
    expect(kept.status).toBe(200);
    expect(kept.json.unknown_fields).toBe('keep');
    expectCreated(await submit(form.id, { ...contact, phone: '123' }, { origin: ORIGIN }), form.id);
    expect((await storedRows(form.id))[0]!.data).toEqual({ ...contact, ...unticked, phone: '123' });
    const audit = await t.sql<{ data: unknown }>("select data from audit_events where action = 'form.updated' and target_id = ?", [form.id]);
    expect(audit.map((row) => (typeof row.data === 'string' ? JSON.parse(row.data) : row.data))).toEqual([{ fields: ['unknown_fields'] }]);
  });

  it('takes only reject, keep or ignore', async () => {
    const form = await createForm();
    const res = await patch(form.id, { unknown_fields: 'store' });
    expectError(res, 400, 'invalid_request');
    expect(res.json.error.details[0].path).toBe('unknown_fields');
  });
});
