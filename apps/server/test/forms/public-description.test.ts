/**
 * `GET /v1/forms/{form_id}/public`: what the page a form lives on may read of it — and nothing a
 * key or a member sees beyond that — readable by pages on the form's origins, cheap to ask again.
 */
import { CAPTCHA_SECRET, CAPTCHA_SITE_KEY, createForm, expectError, ORIGIN } from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { t, useWorld } from './fixtures.ts';

useWorld();

let key: string;
beforeAll(async () => {
  ({ key } = await t.signupWithKey());
});

const describeForm = (formId: string, headers: Record<string, string> = {}) => t.request('GET', `/v1/forms/${formId}/public`, { headers });

const FIELDS = [
  { name: 'name', type: 'text', required: true, label: 'Your name' },
  { name: 'email', type: 'email', required: true },
  { name: 'site', type: 'url' },
  { name: 'message', type: 'textarea' },
  { name: 'topic', type: 'select', options: ['Sales', 'Support'] },
  { name: 'cv', type: 'file', accept: ['application/pdf'], max_size: 1_048_576 },
  { name: 'photos', type: 'file', accept: ['image/*'], multiple: true, max_files: 3 },
  { name: 'agree', type: 'checkbox', required: true },
];

describe('a form described for its page', () => {
  it('gives its fields with the limits lfk applies, its spam settings a page needs, and nothing else', async () => {
    const form = await createForm(t, key, {
      name: 'Applications',
      schema: FIELDS,
      allowed_origins: [ORIGIN],
      notify_email: 'owner@example.com',
      spam: { honeypot: '_gotcha', captcha: { provider: 'turnstile', site_key: CAPTCHA_SITE_KEY, secret: CAPTCHA_SECRET } },
    });
    const res = await describeForm(form.id);
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({
      id: form.id,
      name: 'Applications',
      open: true,
      closed_message: null,
      fields: [
        { name: 'name', type: 'text', label: 'Your name', required: true, max_length: 10_000 },
        { name: 'email', type: 'email', label: null, required: true, max_length: 254 },
        { name: 'site', type: 'url', label: null, required: false, max_length: 2048 },
        { name: 'message', type: 'textarea', label: null, required: false, max_length: 65_536 },
        { name: 'topic', type: 'select', label: null, required: false, options: ['Sales', 'Support'] },
        { name: 'cv', type: 'file', label: null, required: false, accept: ['application/pdf'], max_size: 1_048_576, multiple: false, max_files: 1 },
        // No max_size of its own: the default, never above this server's LFK_MAX_FILE_SIZE.
        {
          name: 'photos',
          type: 'file',
          label: null,
          required: false,
          accept: ['image/*'],
          max_size: Math.min(10 * 1_048_576, t.server.services.files.settings.maxFileSize),
          multiple: true,
          max_files: 3,
        },
        { name: 'agree', type: 'checkbox', label: null, required: true },
      ],
      honeypot_field: '_gotcha',
      captcha: { provider: 'turnstile', site_key: CAPTCHA_SITE_KEY },
      drafts: false,
      draft_email_link: false,
    });
    expect(res.body).not.toContain(CAPTCHA_SECRET);
    expect(res.body).not.toContain('owner@example.com');
  });

  it('says a closed form is closed, in the words its owner chose', async () => {
    const form = await createForm(t, key, { name: 'Closed', schema: FIELDS.slice(0, 2), allowed_origins: [ORIGIN] });
    const closing = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { closed: true, closed_message: 'We are full, thank you!' } });
    expect(closing.status, closing.body).toBe(200);
    expect((await describeForm(form.id)).json).toMatchObject({ open: false, closed_message: 'We are full, thank you!' });
  });

  it('is read by pages on the form origins only (CORS); another origin is noted for the owner', async () => {
    const form = await createForm(t, key, { name: 'Origins', schema: FIELDS.slice(0, 2), allowed_origins: [ORIGIN] });
    const allowed = await describeForm(form.id, { origin: ORIGIN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(allowed.headers['access-control-expose-headers'])).toContain('etag');
    expect(String(allowed.headers.vary)).toContain('Origin');

    const elsewhere = await describeForm(form.id, { origin: 'https://elsewhere.example' });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    await t.server.services.background.settle();
    const seen = await t.request('GET', `/v1/forms/${form.id}`, { token: key });
    expect(seen.json.refused_origins.map((r: { origin: string }) => r.origin)).toEqual(['https://elsewhere.example']);
  });

  it('answers 304 to a page that has the same description, and a new ETag once the form changes', async () => {
    const form = await createForm(t, key, { name: 'Cached', schema: FIELDS.slice(0, 2), allowed_origins: [ORIGIN] });
    const first = await describeForm(form.id, { origin: ORIGIN });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');

    const again = await describeForm(form.id, { origin: ORIGIN, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect((await describeForm(form.id, { 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);

    await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { name: 'Cached, renamed' } });
    const changed = await describeForm(form.id, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.json.name).toBe('Cached, renamed');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('is not found for a form that takes keys alone, for an unknown id and for a malformed one, and such an answer is not kept', async () => {
    const keyed = await createForm(t, key, { name: 'Server-side', schema: FIELDS.slice(0, 2), submission_mode: 'api_key' });
    for (const id of [keyed.id, 'form_00000000000000000000000000', 'nope', '%00']) {
      const res = await describeForm(id, { origin: ORIGIN });
      expectError(res, 404, 'form_not_found');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
