/**
 * Closing a form: by hand (a person or a key), at `closes_at`, or once it holds `max_submissions`;
 * decided when a submission arrives. The cap holds under concurrent posts.
 */
import { expectError, ORIGIN, postHtmlForm, submit } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { inboxForm, key, owner, post, stored, useClockedServer, VALID } from './fixtures.ts';

let clock = new Date('2026-11-25T12:00:00Z');
const t = useClockedServer(() => clock);

const patch = (formId: string, body: unknown, token = key) => t.request('PATCH', `/v1/forms/${formId}`, { token, body });

describe('closed by hand', () => {
  it('a key closes and reopens a form; closed, it answers 403 form_closed with its own message', async () => {
    const form = await inboxForm(t, owner);
    const closed = await patch(form.id, { closed: true, closed_message: 'Registrations ended on 1 December. See you next year!' });
    expect(closed.status, closed.body).toBe(200);
    expect(closed.json).toMatchObject({ closed: true, closed_message: 'Registrations ended on 1 December. See you next year!' });

    const refused = await post(t, form.id);
    expect(expectError(refused, 403, 'form_closed').message).toBe('Registrations ended on 1 December. See you next year!');
    // From a server with a key too.
    expectError(await submit(t, form.id, VALID, { token: key }), 403, 'form_closed');
    // An HTML form post gets a page with the message.
    const page = await postHtmlForm(t, form.id, 'name=Ada&email=ada%40example.com', { origin: ORIGIN });
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('This form is closed');
    expect(page.body).toContain('Registrations ended on 1 December. See you next year!');
    expect(await stored(t, form.id)).toEqual([]);

    const reopened = await patch(form.id, { closed: false });
    expect(reopened.json.closed).toBe(false);
    expect((await post(t, form.id)).status).toBe(201);

    const audit = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    const mine = audit.json.data.filter((e: { target: { id: string } | null }) => e.target?.id === form.id);
    // One PATCH that closes and sets the message records both, the message first.
    expect(mine.map((e: { action: string }) => e.action)).toEqual(['form.reopened', 'form.closed', 'form.updated', 'form.created']);
    expect(mine[2].data).toEqual({ fields: ['closed_message'] });
  });

  it('without a message, the default one', async () => {
    const form = await inboxForm(t, owner, { closed: true });
    expect(expectError(await post(t, form.id), 403, 'form_closed').message).toBe('This form is closed and takes no more submissions.');
  });
});

describe('closes_at', () => {
  it('closes the form at that time, with no sweep: the next submission finds it closed', async () => {
    const form = await inboxForm(t, owner, { closes_at: new Date(clock.getTime() + 3_600_000).toISOString() });
    expect((await post(t, form.id)).status).toBe(201);
    clock = new Date(clock.getTime() + 3_600_000);
    expectError(await post(t, form.id), 403, 'form_closed');
    // Moving it later opens the form again.
    const later = await patch(form.id, { closes_at: new Date(clock.getTime() + 60_000).toISOString() });
    expect(later.status, later.body).toBe(200);
    expect((await post(t, form.id)).status).toBe(201);
  });
});

describe('max_submissions', () => {
  it('100 posts at once to a form capped at 10 store exactly 10; the rest are 403 form_closed', async () => {
    const form = await inboxForm(t, owner, { max_submissions: 10, closed_message: 'Sold out.' });
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(t, form.id, { ...VALID, name: `Guest ${i}` })));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 403)).toHaveLength(90);
    for (const res of answers.filter((r) => r.status === 403)) expect(res.json.error).toMatchObject({ code: 'form_closed', message: 'Sold out.' });
    expect(await stored(t, form.id)).toHaveLength(10);
  });

  it('spam does not count; deleting a submission makes room again', async () => {
    const form = await inboxForm(t, owner, { max_submissions: 1, spam: { honeypot: '_gotcha' } });
    expect((await post(t, form.id, { ...VALID, _gotcha: 'bot' })).status).toBe(201);
    const first = await post(t, form.id);
    expect(first.status).toBe(201);
    expectError(await post(t, form.id), 403, 'form_closed');
    const deleted = await t.request('DELETE', `/v1/forms/${form.id}/submissions/${first.json.id}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect((await post(t, form.id)).status).toBe(201);
  });
});

describe('bad settings: 400 with the field named', () => {
  it('refuses what cannot be meant, and changes nothing', async () => {
    const form = await inboxForm(t, owner);
    const cases: [Record<string, unknown>, string][] = [
      [{ max_submissions: 0 }, 'max_submissions'],
      [{ max_submissions: -5 }, 'max_submissions'],
      [{ max_submissions: 1.5 }, 'max_submissions'],
      [{ max_submissions: '10' }, 'max_submissions'],
      [{ closes_at: new Date(clock.getTime() - 1000).toISOString() }, 'closes_at'],
      [{ closes_at: clock.toISOString() }, 'closes_at'],
      [{ closes_at: 'tomorrow' }, 'closes_at'],
      [{ closes_at: '0000-01-01T00:00:00Z' }, 'closes_at'],
      [{ closed: 'yes' }, 'closed'],
      [{ closed_message: '' }, 'closed_message'],
      [{ closed_message: 'x'.repeat(1001) }, 'closed_message'],
      [{ closed_message: 'two\nlines' }, 'closed_message'],
      [{ spam: { honeypot: 'email' } }, 'spam.honeypot'],
      [{ spam: { captcha: { provider: 'turnstile', site_key: 'k' } } }, 'spam.captcha.secret'],
    ];
    for (const [body, path] of cases) {
      const res = await patch(form.id, body);
      const error = expectError(res, 400, 'invalid_request');
      expect(
        error.details?.map((d) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    // The same rules at creation, where retention is set too.
    const created = await t.request('POST', '/v1/forms', { token: key, body: { name: 'X', schema: form.schema, max_submissions: 0 } });
    expect(expectError(created, 400, 'invalid_request').details?.[0]?.path).toBe('max_submissions');
    for (const retention_days of [0, 3651, 30.5, '7']) {
      const bad = await t.request('POST', '/v1/forms', { token: key, body: { name: 'X', schema: form.schema, retention_days } });
      expect(expectError(bad, 400, 'invalid_request').details?.[0]?.path, String(retention_days)).toBe('retention_days');
      const later = await t.request('PUT', `/v1/forms/${form.id}/retention`, { token: owner.token, body: { retention_days } });
      expect(expectError(later, 400, 'invalid_request').details?.[0]?.path, String(retention_days)).toBe('retention_days');
    }
    const read = await t.request('GET', `/v1/forms/${form.id}`, { token: key });
    expect(read.json).toMatchObject({ closed: false, closes_at: null, max_submissions: null, closed_message: null, retention_days: null });
  });

  it('accepts the edges: 1 and 3650 days, a cap of 1, a time a minute ahead; null clears each', async () => {
    const form = await inboxForm(t, owner, { retention_days: 3650 });
    expect(form).toMatchObject({ retention_days: 3650 });
    const closesAt = new Date(clock.getTime() + 60_000).toISOString();
    const set = await patch(form.id, { max_submissions: 1, closes_at: closesAt });
    expect(set.json).toMatchObject({ max_submissions: 1, closes_at: closesAt });
    const retention = (days: number | null) => t.request('PUT', `/v1/forms/${form.id}/retention`, { token: owner.token, body: { retention_days: days } });
    expect((await retention(1)).json.retention_days).toBe(1);
    expect((await retention(null)).json.retention_days).toBeNull();
    const cleared = await patch(form.id, { max_submissions: null, closes_at: null });
    expect(cleared.json).toMatchObject({ retention_days: null, max_submissions: null, closes_at: null });
  });

  it('a key sets retention at creation, but cannot change it later: a shorter one deletes submissions', async () => {
    const form = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Kept', schema: [{ name: 'email', type: 'email' }], retention_days: 30 } });
    expect(form.json.retention_days).toBe(30);
    expectError(await t.request('PUT', `/v1/forms/${form.json.id}/retention`, { token: key, body: { retention_days: 1 } }), 403, 'session_required');
    expectError(await patch(form.json.id, { retention_days: 1 }), 400, 'invalid_request');
    const read = await t.request('GET', `/v1/forms/${form.json.id}`, { token: key });
    expect(read.json.retention_days).toBe(30);
    const audit = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    expect(audit.json.data.filter((e: { target: { id: string } | null }) => e.target?.id === form.json.id).map((e: { action: string }) => e.action)).toEqual([
      'form.created',
    ]);
  });
});
