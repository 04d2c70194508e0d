/**
 * Issue 50, item 8: links in mail must lead somewhere. Every kind of email lfk sends
 * (`EMAIL_KINDS`: a kind without a case here fails) is made the way it is made for real, and every
 * link it carries (text, HTML, List-Unsubscribe) is followed against the real server: an API link
 * answers its page, a dashboard link is one of the paths the server answers with the app's page
 * and one of the dashboard router's routes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMAIL_KINDS, type EmailKind, sweepKeyLifecycle } from '@lfk/api';
import {
  createContactForm,
  emailsSentTo,
  ORIGIN,
  PASSWORD,
  type Receiver,
  reporterKeys,
  signed,
  startReceiver,
  submit,
  until,
  useTestServer,
  VALID,
} from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { address } from './fixtures.ts';

const PUBLIC_URL = 'http://lfk.test';
const DAY = 86_400_000;
const github = reporterKeys();
const LEAK_URL = 'https://github.com/octocat/hello/blob/abc123/config.js';
/** The owner's page a draft's link opens again (followed in Chromium: apps/web/test/kit.test.ts). */
const DRAFT_PAGE = `${ORIGIN}/apply`;

// A stand-in for the built dashboard: the server's routes for the app's page are what is tested.
const dashboardDir = mkdtempSync(join(tmpdir(), 'lfk-dashboard-'));
writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>lfk</title><div id="app"></div>');
afterAll(() => rmSync(dashboardDir, { recursive: true, force: true }));

const t = useTestServer(
  { LFK_WEBHOOK_ALLOW_PRIVATE: 'true', LFK_SECRET_SCANNING_KEYS: github.env },
  { config: { dashboardDir }, outbox: { pollMs: 50 }, webhooks: { pollMs: 50 } },
);
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** The dashboard router's routes, read from its source: each as a pattern over a path. */
function dashboardRoutes(): RegExp[] {
  const source = readFileSync(fileURLToPath(new URL('../../../web/src/router.tsx', import.meta.url)), 'utf8');
  const paths: string[] = [];
  for (const [, parent, path] of source.matchAll(/createRoute\(\{\s*getParentRoute: \(\) => (\w+),\s*path: '([^']*)'/g)) {
    if (parent === 'rootRoute') paths.push(path!);
    else if (parent === 'workspaceRoute') paths.push(`/w/$workspaceId${path === '/' ? '' : `/${path}`}`);
  }
  for (const [, path] of source.matchAll(/workspacePage\('([^']+)'/g)) paths.push(`/w/$workspaceId/${path}`);
  expect(paths).toContain('/w/$workspaceId/account');
  return paths.map((path) => new RegExp(`^${path.replace(/\$\w+/g, '[^/]+')}/?$`));
}

/** How to make one email of each kind, as lfk makes it; each answers the address it went to. */
const SENDS: Record<EmailKind, () => Promise<string>> = {
  async verification() {
    const { key } = await t.signupWithKey();
    const to = address('notify');
    expect(
      (await t.request('POST', '/v1/forms', { token: key, body: { name: 'Contact', schema: [{ name: 'email', type: 'email' }], notify_email: to } })).status,
    ).toBe(201);
    return to;
  },
  async account_verification() {
    const to = address('signup');
    await t.signupOverHttp(to);
    return to;
  },
  async invitation() {
    const owner = await t.signup();
    const to = address('invitee');
    expect(
      (await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: to, role: 'member' } })).status,
    ).toBe(202);
    return to;
  },
  async password_reset() {
    const owner = await t.signup();
    expect((await t.request('POST', '/v1/auth/password-resets', { body: { email: owner.email } })).status).toBe(202);
    return owner.email;
  },
  async password_changed() {
    const owner = await t.signup();
    const res = await t.request('POST', '/v1/auth/password', {
      token: owner.token,
      body: { current_password: PASSWORD, new_password: 'another long password' },
    });
    expect(res.status, res.body).toBe(204);
    return owner.email;
  },
  async two_factor_changed() {
    const owner = await t.signup();
    await t.enableAuthenticator(owner.token);
    return owner.email;
  },
  async device_signed_in() {
    const owner = await t.signup();
    const started = await t.request('POST', '/v1/auth/device-logins', { body: { device_name: 'laptop' } });
    expect(started.status, started.body).toBe(201);
    expect((await t.request('POST', `/v1/auth/device-logins/${started.json.user_code}/approve`, { token: owner.token })).status).toBe(200);
    return owner.email;
  },
  async submission() {
    const { owner, key } = await t.signupWithKey();
    const form = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Notified', schema: [{ name: 'email', type: 'email' }], notify_email: owner.email },
    });
    expect((await t.request('POST', `/v1/forms/${form.json.id}/submissions`, { token: key, body: { email: 'someone@example.org' } })).status).toBe(201);
    return owner.email;
  },
  async auto_reply() {
    const { key } = await t.signupWithKey();
    const auto_reply = { email_field: 'email', subject: 'Thanks', text: 'We got it.' };
    const form = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Replying', schema: [{ name: 'email', type: 'email' }], auto_reply } });
    const to = address('visitor');
    expect((await t.request('POST', `/v1/forms/${form.json.id}/submissions`, { token: key, body: { email: to } })).status).toBe(201);
    return to;
  },
  async draft_link() {
    const { key } = await t.signupWithKey();
    const body = { name: 'Later', schema: [{ name: 'name', type: 'text' }], allowed_origins: [ORIGIN], drafts: { enabled: true, email_link: true } };
    const form = await t.request('POST', '/v1/forms', { token: key, body });
    const page = { origin: ORIGIN };
    const draft = await t.request('POST', `/v1/forms/${form.json.id}/drafts`, { headers: page, body: { data: { name: 'Ada' } } });
    const to = address('later');
    const url = `/v1/forms/${form.json.id}/drafts/${draft.json.resume_token}/email`;
    expect((await t.request('POST', url, { headers: page, body: { email: to, page_url: DRAFT_PAGE } })).status).toBe(202);
    return to;
  },
  async api_key_leaked() {
    const { owner, key } = await t.signupWithKey();
    const body = JSON.stringify([{ token: key, type: 'lfk_api_key', url: LEAK_URL, source: 'content' }]);
    expect((await t.request('POST', '/v1/secret-scanning/reports', { raw: body, headers: signed(body, github) })).status).toBe(200);
    return owner.email;
  },
  async api_key_expiring() {
    const owner = await t.signup();
    const created = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, {
      token: owner.token,
      body: { name: 'quarterly', expires_at: new Date(Date.now() + 30 * DAY).toISOString() },
    });
    expect(created.status, created.body).toBe(201);
    // The lifecycle sweep, as the server runs it, a week before the key expires.
    await sweepKeyLifecycle(t.server.db, new Date(new Date(created.json.expires_at).getTime() - 7 * DAY), PUBLIC_URL);
    return owner.email;
  },
  async webhook_disabled() {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    expect((await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: receiver.url } })).status).toBe(201);
    receiver.answers.push({ status: 410 });
    expect((await submit(t, form.id, VALID, { origin: ORIGIN })).status).toBe(201);
    return owner.email;
  },
};

/** Every URL an email carries, in its text, its HTML and its List-Unsubscribe header. */
function linksOf(email: { text: string; html?: string; list_unsubscribe?: string }): string[] {
  const found = new Set<string>();
  for (const part of [email.text, email.html ?? '', email.list_unsubscribe ?? '']) {
    for (const [url] of part.matchAll(/https?:\/\/[^\s"'<>]+/g)) found.add(url!.replace(/[.,;:)]+$/, ''));
  }
  return [...found];
}

describe('every kind of email', () => {
  it('has a case here: a new kind without one fails', () => {
    expect(Object.keys(SENDS).sort()).toEqual(Object.keys(EMAIL_KINDS).sort());
  });

  const routes = dashboardRoutes();

  it.each(Object.keys(EMAIL_KINDS) as EmailKind[])('%s: every link leads to a page', async (kind) => {
    const to = await SENDS[kind]();
    const [email] = await until(`a ${kind} email to ${to}`, () => {
      const sent = emailsSentTo(t, to, kind) as { text: string; html?: string; list_unsubscribe?: string }[];
      return sent.length > 0 ? sent : undefined;
    });
    for (const url of linksOf(email!)) {
      if (!url.startsWith(`${PUBLIC_URL}/`)) {
        // The only links elsewhere are what lfk was told: where a key was found, the page a draft was begun on.
        expect(url, kind).toMatch(kind === 'draft_link' ? new RegExp(`^${DRAFT_PAGE}#lfk-draft=form_\\w+:lfp_\\w+$`) : new RegExp(`^${LEAK_URL}$`));
        continue;
      }
      const path = url.slice(PUBLIC_URL.length);
      const res = await t.request('GET', path);
      expect(res.status, `${kind}: GET ${path} → ${res.status} ${res.body.slice(0, 200)}`).toBe(200);
      if (!path.startsWith('/v1/')) {
        // The app's page, and a screen of the dashboard's router to draw on it.
        expect(res.body, path).toContain('<div id="app">');
        expect(
          routes.some((route) => route.test(new URL(url).pathname)),
          `${kind}: ${path} is no route of the dashboard`,
        ).toBe(true);
      }
    }
  });
});
