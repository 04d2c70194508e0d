/**
 * Spam: a honeypot field and a captcha verified with the provider (a local fake of its siteverify
 * API). Spam is stored marked, answered exactly like a real submission, and sends nothing;
 * members mark it spam or not spam, and "not spam" sends what was held back.
 */
import {
  type Account,
  CAPTCHA_SECRET,
  CAPTCHA_SITE_KEY,
  type CaptchaProvider,
  expectError,
  ORIGIN,
  postHtmlForm,
  startCaptchaProvider,
  startTestServer,
  submit,
  type TestServer,
  until,
} from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxForm, post, sendsOf, shapeOf, stored, unreachableWebhook, VALID, verifiedNotifyEmail } from './fixtures.ts';

let provider: CaptchaProvider;
let t: TestServer;
let owner: Account;
let key: string;

beforeAll(async () => {
  provider = await startCaptchaProvider();
  // Mail goes to a port nobody listens on, and webhooks to a name that never resolves: what a
  // submission sends stays waiting (retried an hour later), where a test can see it and cancel it.
  t = await startTestServer(
    { ...provider.env, SMTP_URL: 'smtp://127.0.0.1:9', LFK_WEBHOOK_ALLOW_PRIVATE: 'true' },
    { outbox: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 }, webhooks: { retryDelaysMs: [3_600_000] } },
  );
  ({ owner, key } = await t.signupWithKey());
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const captcha = (provider: string, secret = CAPTCHA_SECRET) => ({ spam: { captcha: { provider, site_key: CAPTCHA_SITE_KEY, secret } } });

describe('a honeypot', () => {
  it('a filled honeypot is stored as spam, answered as a real submission is, and sends nothing', async () => {
    const form = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    expect(form).toMatchObject({ spam: { honeypot: '_gotcha', captcha: null } });
    await verifiedNotifyEmail(t, form.id);
    await unreachableWebhook(t, owner, form.id);

    const real = await post(t, form.id, { ...VALID, _gotcha: '' });
    const bot = await post(t, form.id, { ...VALID, _gotcha: 'http://spam.example' });
    expect(real.status, real.body).toBe(201);
    expect(shapeOf(bot)).toEqual(shapeOf(real));

    const rows = await stored(t, form.id);
    expect(rows).toEqual([
      { id: real.json.id, status: 'ok', spam_reason: null, data: { ...VALID } },
      { id: bot.json.id, status: 'spam', spam_reason: 'honeypot', data: { ...VALID } },
    ]);
    expect(await sendsOf(t, real.json.id)).toEqual({ emails: 1, deliveries: 1 });
    expect(await sendsOf(t, bot.json.id)).toEqual({ emails: 0, deliveries: 0 });

    // The list shows real submissions; spam is read apart.
    const list = await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: owner.token });
    expect(list.json.data.map((s: { id: string }) => s.id)).toEqual([real.json.id]);
    const spam = await t.request('GET', `/v1/forms/${form.id}/submissions?status=spam`, { token: owner.token });
    expect(spam.json.data).toEqual([expect.objectContaining({ id: bot.json.id, status: 'spam', spam_reason: 'honeypot' })]);
  });

  it('an HTML form post with the honeypot filled gets the same thank-you page', async () => {
    const form = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    const person = await postHtmlForm(t, form.id, 'name=Ada&email=ada%40example.com&_gotcha=', { origin: ORIGIN });
    const bot = await postHtmlForm(t, form.id, 'name=Ada&email=ada%40example.com&_gotcha=buy+now', { origin: ORIGIN });
    expect(person.status).toBe(200);
    expect(shapeOf(bot)).toEqual(shapeOf(person));
    expect((await stored(t, form.id)).map((r) => r.status)).toEqual(['ok', 'spam']);
  });

  it('without a honeypot set, the field is an unknown field as before; a honeypot named like a field is refused', async () => {
    const form = await inboxForm(t, owner);
    expectError(await post(t, form.id, { ...VALID, _gotcha: 'x' }), 422, 'validation_failed');
    const clash = await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { spam: { honeypot: 'email' } } });
    expect(expectError(clash, 400, 'invalid_request').details).toEqual([{ path: 'spam.honeypot', message: expect.stringContaining('fields') }]);
    // …and a schema that takes the honeypot's name for a field, once one is set.
    await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { spam: { honeypot: 'website' } } });
    const schema = [...form.schema, { name: 'website', type: 'url' }];
    const taken = await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { schema } });
    expect(expectError(taken, 400, 'invalid_request').details?.[0]?.path).toBe('spam.honeypot');
    for (const honeypot of ['', '1abc', 'has space', 'x'.repeat(65), '<script>', 'cf-turnstile-response', 'g-recaptcha-response']) {
      const bad = await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { spam: { honeypot } } });
      expect(expectError(bad, 400, 'invalid_request').details?.[0]?.path, honeypot).toBe('spam.honeypot');
    }
  });
});

describe('a captcha', () => {
  it('is verified with the provider; the secret is write-only and sealed at rest', async () => {
    const form = await inboxForm(t, owner, captcha('turnstile'));
    expect(form).toMatchObject({ spam: { honeypot: null, captcha: { provider: 'turnstile', site_key: CAPTCHA_SITE_KEY } } });
    expect(JSON.stringify(form)).not.toContain(CAPTCHA_SECRET);
    const read = await t.request('GET', `/v1/forms/${form.id}`, { token: key });
    expect(read.body).not.toContain(CAPTCHA_SECRET);
    const [row] = await t.sql<{ captcha_secret_sealed: string }>('select captcha_secret_sealed from forms where id = ?', [form.id]);
    expect(row!.captcha_secret_sealed).toMatch(/^v1\./);
    expect(row!.captcha_secret_sealed).not.toContain(CAPTCHA_SECRET);

    const before = provider.requests.length;
    const res = await post(t, form.id, { ...VALID, 'cf-turnstile-response': 'pass-turnstile-1' });
    expect(res.status, res.body).toBe(201);
    expect(provider.requests.slice(before)).toEqual([
      { path: '/turnstile/v0/siteverify', params: { secret: CAPTCHA_SECRET, response: 'pass-turnstile-1', remoteip: '127.0.0.1' } },
    ]);
    // The token is not a value of the submission.
    expect(await stored(t, form.id)).toEqual([{ id: res.json.id, status: 'ok', spam_reason: null, data: { ...VALID } }]);
    expect(t.logs.join('\n')).not.toContain(CAPTCHA_SECRET);
  });

  it('missing, malformed, refused, reused or solved on another site: 422 captcha_failed, nothing stored', async () => {
    const form = await inboxForm(t, owner, captcha('turnstile'));
    const field = 'cf-turnstile-response';
    expect((await post(t, form.id, { ...VALID, [field]: 'pass-reused' })).status).toBe(201);
    const cases: [string, Record<string, unknown>][] = [
      ['missing', {}],
      ['empty', { [field]: '  ' }],
      ['not a string', { [field]: 42 }],
      ['too long', { [field]: `pass-${'x'.repeat(5000)}` }],
      ['refused', { [field]: 'bad-1' }],
      ['reused', { [field]: 'pass-reused' }],
      ['another site', { [field]: 'elsewhere-1' }],
      ['another provider’s field', { 'h-captcha-response': 'pass-h' }],
    ];
    for (const [what, extra] of cases) {
      const res = await post(t, form.id, { ...VALID, ...extra });
      if (what === 'another provider’s field') expectError(res, 422, 'validation_failed');
      else expectError(res, 422, 'captcha_failed');
    }
    expect((await stored(t, form.id)).length).toBe(1);

    // An HTML form post is told on a page.
    const page = await postHtmlForm(t, form.id, 'name=Ada&email=ada%40example.com', { origin: ORIGIN });
    expect(page.status).toBe(422);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Please complete the check');
  });

  it('a provider that cannot be reached, or refuses the form’s own secret, loses nothing: kept as spam, captcha_unverified', async () => {
    const down = await inboxForm(t, owner, captcha('hcaptcha'));
    const res = await post(t, down.id, { ...VALID, 'h-captcha-response': 'down-1' });
    expect(res.status, res.body).toBe(201);
    const typo = await inboxForm(t, owner, captcha('recaptcha', 'a-secret-with-a-typo'));
    const kept = await post(t, typo.id, { ...VALID, 'g-recaptcha-response': 'pass-typo' });
    expect(kept.status, kept.body).toBe(201);
    for (const [form, id] of [
      [down, res.json.id],
      [typo, kept.json.id],
    ] as const) {
      expect(await stored(t, form.id)).toEqual([{ id, status: 'spam', spam_reason: 'captcha_unverified', data: { ...VALID } }]);
      expect(await sendsOf(t, id)).toEqual({ emails: 0, deliveries: 0 });
    }
    expect(t.logs.some((line) => line.includes('captcha could not be verified'))).toBe(true);
  });

  it('hCaptcha is told the site key; a reCAPTCHA v3 score below 0.5 is refused', async () => {
    const h = await inboxForm(t, owner, captcha('hcaptcha'));
    const before = provider.requests.length;
    expect((await post(t, h.id, { ...VALID, 'h-captcha-response': 'pass-h-1' })).status).toBe(201);
    expect(provider.requests[before]).toMatchObject({ path: '/hcaptcha/siteverify', params: { sitekey: CAPTCHA_SITE_KEY } });
    const r = await inboxForm(t, owner, captcha('recaptcha'));
    expectError(await post(t, r.id, { ...VALID, 'g-recaptcha-response': 'lowscore-1' }), 422, 'captcha_failed');
    expect((await post(t, r.id, { ...VALID, 'g-recaptcha-response': 'pass-r-1' })).status).toBe(201);
  });

  it('a server with a key skips the captcha; a retry with the same Idempotency-Key is answered without asking again', async () => {
    const form = await inboxForm(t, owner, captcha('turnstile'));
    const before = provider.requests.length;
    const server = await submit(t, form.id, VALID, { token: key });
    expect(server.status, server.body).toBe(201);
    expect(provider.requests.length).toBe(before);

    const body = { ...VALID, 'cf-turnstile-response': 'pass-idem' };
    const first = await post(t, form.id, body, { 'idempotency-key': 'retry-1' });
    const again = await post(t, form.id, body, { 'idempotency-key': 'retry-1' });
    expect(first.status).toBe(201);
    expect(again.status, again.body).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(provider.requests.length).toBe(before + 1);
  });

  it('the captcha is changed, kept or removed: a new provider needs its secret, the same one keeps it', async () => {
    const form = await inboxForm(t, owner, captcha('turnstile'));
    const patch = (spam: unknown) => t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { spam } });
    const noSecret = await patch({ captcha: { provider: 'hcaptcha', site_key: 'other' } });
    expect(expectError(noSecret, 400, 'invalid_request').details).toEqual([{ path: 'spam.captcha.secret', message: expect.any(String) }]);
    const kept = await patch({ captcha: { provider: 'turnstile', site_key: 'renamed-site-key' } });
    expect(kept.json.spam.captcha).toEqual({ provider: 'turnstile', site_key: 'renamed-site-key' });
    expect((await post(t, form.id, { ...VALID, 'cf-turnstile-response': 'pass-kept' })).status).toBe(201);
    const removed = await patch({ captcha: null });
    expect(removed.json.spam).toEqual({ honeypot: null, captcha: null });
    expect((await post(t, form.id, VALID)).status).toBe(201);
    const [row] = await t.sql<{ captcha_secret_sealed: string | null }>('select captcha_secret_sealed from forms where id = ?', [form.id]);
    expect(row!.captcha_secret_sealed).toBeNull();
    for (const bad of [
      { provider: 'recaptcha-v9', site_key: 'x', secret: 'y' },
      { provider: 'turnstile', site_key: '', secret: 'y' },
      { provider: 'turnstile', site_key: 'x', secret: 'two\nlines' },
    ]) {
      expectError(await patch({ captcha: bad }), 400, 'invalid_request');
    }
  });
});

describe('marking spam and not spam', () => {
  it('"spam" cancels what was waiting to be sent; "not spam" sends what spam held back, and nothing twice', async () => {
    const form = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    await verifiedNotifyEmail(t, form.id);
    await unreachableWebhook(t, owner, form.id);
    const real = (await post(t, form.id, VALID)).json.id as string;
    const caught = (await post(t, form.id, { ...VALID, _gotcha: 'x' })).json.id as string;
    expect(await sendsOf(t, real)).toEqual({ emails: 1, deliveries: 1 });

    const marked = await t.request('POST', `/v1/forms/${form.id}/submissions/${real}/spam`, { token: owner.token });
    expect(marked.status, marked.body).toBe(200);
    expect(marked.json).toMatchObject({ id: real, status: 'spam', spam_reason: 'marked' });
    // Nothing was sent (the mail server and the receiver never answer): both were waiting, and are cancelled.
    expect(await sendsOf(t, real)).toEqual({ emails: 0, deliveries: 0 });

    const released = await t.request('POST', `/v1/forms/${form.id}/submissions/${caught}/not-spam`, { token: owner.token });
    expect(released.json).toMatchObject({ id: caught, status: 'ok', spam_reason: null });
    expect(await sendsOf(t, caught)).toEqual({ emails: 1, deliveries: 1 });
    // Marking again changes nothing and sends nothing more.
    await t.request('POST', `/v1/forms/${form.id}/submissions/${caught}/not-spam`, { token: owner.token });
    expect(await sendsOf(t, caught)).toEqual({ emails: 1, deliveries: 1 });
    // A mistaken "spam" undone: what marking it cancelled is sent after all.
    await t.request('POST', `/v1/forms/${form.id}/submissions/${real}/not-spam`, { token: owner.token });
    expect(await sendsOf(t, real)).toEqual({ emails: 1, deliveries: 1 });

    // What was sent before it was marked is not sent again: its email (sent) and delivery (succeeded) stay as they were.
    const sent = (await post(t, form.id, VALID)).json.id as string;
    // Written as sent once the sender and the worker have made (and recorded) their first attempt,
    // so neither writes its failure over it afterwards.
    await until(
      'the first attempts to be recorded',
      async () =>
        (await t.count('outbox_emails where submission_id = ? and attempts > 0 and locked_until is null', [sent])) === 1 &&
        (await t.count('webhook_deliveries where submission_id = ? and attempt_count > 0 and locked_until is null', [sent])) === 1,
    );
    await t.sql("update outbox_emails set status = 'sent', body = null where submission_id = ?", [sent]);
    await t.sql("update webhook_deliveries set status = 'succeeded', next_attempt_at = null where submission_id = ?", [sent]);
    await t.request('POST', `/v1/forms/${form.id}/submissions/${sent}/spam`, { token: owner.token });
    await t.request('POST', `/v1/forms/${form.id}/submissions/${sent}/not-spam`, { token: owner.token });
    expect(await sendsOf(t, sent)).toEqual({ emails: 1, deliveries: 1 });
    expect(await t.count("outbox_emails where submission_id = ? and status = 'pending'", [sent])).toBe(0);

    const audit = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    const actions = audit.json.data.filter((e: { target: { id: string } | null }) => e.target?.id === real || e.target?.id === caught);
    // Newest first.
    expect(actions.map((e: { action: string; target: { id: string } }) => [e.action, e.target.id])).toEqual([
      ['submission.marked_not_spam', real],
      ['submission.marked_not_spam', caught],
      ['submission.marked_spam', real],
    ]);
    expect(audit.body).not.toContain(VALID.email);
  });

  it('two "not spam" at once send once: the second finds it real already', async () => {
    const form = await inboxForm(t, owner, { spam: { honeypot: '_gotcha' } });
    await verifiedNotifyEmail(t, form.id);
    await unreachableWebhook(t, owner, form.id);
    const caught = (await post(t, form.id, { ...VALID, _gotcha: 'x' })).json.id as string;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.request('POST', `/v1/forms/${form.id}/submissions/${caught}/not-spam`, { token: owner.token })),
    );
    for (const res of answers) expect(res.json).toMatchObject({ id: caught, status: 'ok' });
    expect(await sendsOf(t, caught)).toEqual({ emails: 1, deliveries: 1 });
    expect(await t.count("audit_events where action = 'submission.marked_not_spam' and target_id = ?", [caught])).toBe(1);
  });

  it('a key cannot mark: it cannot read submissions; another form’s submission is not found', async () => {
    const form = await inboxForm(t, owner);
    const other = await inboxForm(t, owner);
    const id = (await post(t, form.id, VALID)).json.id;
    expectError(await t.request('POST', `/v1/forms/${form.id}/submissions/${id}/spam`, { token: key }), 403, 'session_required');
    expectError(await t.request('POST', `/v1/forms/${other.id}/submissions/${id}/spam`, { token: owner.token }), 404, 'submission_not_found');
    expectError(await t.request('POST', `/v1/forms/${form.id}/submissions/sub_nope/not-spam`, { token: owner.token }), 404, 'submission_not_found');
    expect((await stored(t, form.id))[0]!.status).toBe('ok');
  });
});
