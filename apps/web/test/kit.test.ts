/**
 * Issue 53's browser kit (`@lfk/browser`) in a real Chromium, from the visitor's side: a page on a
 * site's own origin (one of the form's allowed origins) loads the kit from lfk's versioned path with
 * its integrity hash, and its form is sent without leaving the page. The same page on another
 * origin stores nothing, and with JavaScript off the form still posts as plain HTML.
 */
import { CAPTCHA_SECRET, CAPTCHA_SITE_KEY, type CaptchaProvider, emailsSentTo, startCaptchaProvider, until } from '@lfk/server/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createSiteForm,
  describeInBrowser,
  eventually,
  expectAccessible,
  focused,
  type Site,
  see,
  sendRefusedPhone,
  startSite,
  useDashboard,
} from './fixtures.ts';

const MIB = 1024 * 1024;

/**
 * Turnstile as the kit meets it, without the network: each `.cf-turnstile` element gets the hidden
 * input the real widget adds, with a token the test's captcha provider passes once (`pass-…`).
 */
const FAKE_TURNSTILE = `(() => {
  let n = 0;
  const fill = (el) => {
    let input = el.querySelector('input');
    if (!input) { input = document.createElement('input'); input.type = 'hidden'; input.name = 'cf-turnstile-response'; el.append(input); }
    input.value = 'pass-' + el.getAttribute('data-sitekey') + '-' + Date.now() + '-' + ++n;
  };
  window.turnstile = { render: fill, reset: () => document.querySelectorAll('.cf-turnstile').forEach(fill) };
  document.querySelectorAll('.cf-turnstile').forEach(fill);
})();`;

describeInBrowser('the browser kit on an owner’s page', () => {
  /** The server's siteverify URLs point at a provider started first (hooks run in order). */
  const captchaEnv: Record<string, string> = {};
  let captcha: CaptchaProvider;
  beforeAll(async () => {
    captcha = await startCaptchaProvider('127.0.0.1');
    Object.assign(captchaEnv, captcha.env);
  });
  afterAll(() => captcha.close());
  const d = useDashboard(captchaEnv);
  let site: Site;
  /** The site's origin, on the form's list. */
  let siteOrigin: string;
  /** The same site at another name: an origin the form does not allow. */
  let otherOrigin: string;
  /** What the site serves at each path. */
  const pages = new Map<string, string>();
  let scriptTag: string;
  let token: string;
  let workspaceId: string;

  beforeAll(async () => {
    site = await startSite((request, response) => {
      const page = pages.get(new URL(request.url ?? '/', 'http://site').pathname);
      if (page === undefined) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    ({ origin: siteOrigin, otherOrigin } = site);
    const kit = await fetch(`${d.url}/v1/kit`);
    expect(kit.status).toBe(200);
    scriptTag = ((await kit.json()) as { script_tag: string }).script_tag;
    ({ token, workspaceId } = await d.t.signup());
  });
  afterAll(() => site.close());

  /** A form on the site's origin, made through the API. */
  const newForm = (more: Record<string, unknown> = {}) => createSiteForm(d.t, { token, workspaceId }, siteOrigin, { more });

  let served = 0;
  /** Serves the owner's page holding `form` (and the kit's tag), returns its path. */
  function servePage(form: string, head = scriptTag): string {
    const path = `/contact-${++served}`;
    pages.set(
      path,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact us</title>${head}</head>` +
        `<body><main><h1>Contact us</h1>${form}</main></body></html>`,
    );
    return path;
  }

  /** The form as an owner writes it: it posts to lfk without the kit, too. */
  const plainForm = (formId: string, inside = '') =>
    `<form method="post" action="${d.url}/v1/forms/${formId}/submissions" enctype="multipart/form-data">` +
    '<label>Your email <input name="email" type="email" required></label>' +
    '<label>Phone number <input name="phone" type="tel"></label>' +
    `<label>Attachment <input name="attachment" type="file"></label>${inside}<button>Send</button></form>`;

  /** A visitor's page at `origin`, with the kit loaded (its integrity checked: `window.lfk` is there only then). */
  async function visit(origin: string, path: string): Promise<Page> {
    const page = await d.newPage();
    await page.goto(`${origin}${path}`);
    await eventually(() => page.evaluate(() => typeof (window as { lfk?: unknown }).lfk)).toBe('object');
    return page;
  }

  const count = (formId: string) => d.t.count('submissions where form_id = ?', [formId]);

  it('is served from lfk: the newest for 5 minutes, each version for good, to any site', async () => {
    const about = (await (await fetch(`${d.url}/v1/kit`)).json()) as { version: string; src: string; integrity: string };
    expect(about.src).toBe(`${d.url}/v1/kit/lfk-${about.version}.js`);
    const pinned = await fetch(about.src);
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers.get('x-content-type-options')).toBe('nosniff');
    expect(pinned.headers.get('access-control-allow-origin')).toBe('*');
    const latest = await fetch(`${d.url}/v1/kit/lfk.js`);
    expect(latest.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await latest.text()).toBe(await pinned.text());
    expect((await fetch(`${d.url}/v1/kit/lfk-0.0.0-0000000000.js`)).status).toBe(404);
  });

  it('shows each refused field beside its input, then the success in place of the form', async () => {
    const formId = await newForm();
    const path = servePage(plainForm(formId));
    const page = await visit(siteOrigin, path);
    const phone = await sendRefusedPhone(page, 'Phone number');
    await expectAccessible(page, 'kit-errors');

    // Sent again as it was: one message still, not two.
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('status').getByText('Please check your answers.'));
    await eventually(() => page.getByText('Must be a telephone number.').count()).toBe(1);

    await phone.fill('+44 20 7946 0958');
    await page.getByRole('button', { name: 'Send' }).click();
    const thanks = page.getByRole('status').getByText('Thank you: your answers were sent.');
    await see(thanks);
    expect(await focused(page.getByRole('status'))).toBe(true);
    expect(await page.locator('form').count()).toBe(0);
    expect(page.url()).toBe(`${siteOrigin}${path}`);
    await expectAccessible(page, 'kit-success');
    expect(await count(formId)).toBe(1);
  });

  it('replaces the form with the element the owner marked data-lfk-success, and tells listeners', async () => {
    const formId = await newForm();
    const page = await visit(siteOrigin, servePage(plainForm(formId, '<div data-lfk-success hidden><h2>Got it</h2><p>We answer within a day.</p></div>')));
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      for (const name of ['lfk:submit', 'lfk:success', 'lfk:error']) document.addEventListener(name, () => seen.push(name));
    });
    await page.getByLabel('Your email').fill('grace@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('heading', { name: 'Got it' }));
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['lfk:submit', 'lfk:success']);
    expect(await page.evaluate(() => document.activeElement?.querySelector('h2')?.textContent)).toBe('Got it');
    expect(await count(formId)).toBe(1);
  });

  it('a double click stores one submission', async () => {
    const formId = await newForm();
    const page = await visit(siteOrigin, servePage(plainForm(formId)));
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send' }).dblclick();
    await see(page.getByText('Thank you: your answers were sent.'));
    expect(await count(formId)).toBe(1);
  });

  it('shows a 5 MiB upload’s progress, and a cancelled upload stores nothing', async () => {
    const formId = await newForm();
    const page = await visit(siteOrigin, servePage(plainForm(formId)));
    await page.evaluate(() => {
      const seen: { loaded: number; total: number; percent: number }[] = [];
      (window as unknown as { progress: typeof seen }).progress = seen;
      document.addEventListener('lfk:progress', (event) => seen.push((event as CustomEvent).detail));
    });
    const file = { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5 * MIB, 32)]) };
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByLabel('Attachment').setInputFiles(file);

    // Slowed to a crawl (about 80 s for the file), so that the visitor can cancel halfway.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await page.getByRole('button', { name: 'Send' }).click();
    const bar = page.getByRole('progressbar', { name: 'Upload progress' });
    await see(bar);
    await eventually(() => page.evaluate(() => (window as unknown as { progress: unknown[] }).progress.length)).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'kit-uploading');
    await page.getByRole('button', { name: 'Cancel upload' }).click();
    await see(page.getByRole('status').getByText('Upload cancelled: nothing was sent.'));
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);

    // At full speed: the same answers, sent in full, with their progress up to 100%.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.evaluate(() => {
      (window as unknown as { progress: unknown[] }).progress.length = 0;
    });
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByText('Thank you: your answers were sent.'));
    const progress = await page.evaluate(() => (window as unknown as { progress: { loaded: number; total: number; percent: number }[] }).progress);
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1)!;
    expect(last.total).toBeGreaterThan(5 * MIB);
    expect(last.loaded).toBe(last.total);
    expect(last.percent).toBe(100);
    expect(progress.map((p) => p.loaded)).toEqual([...progress.map((p) => p.loaded)].sort((a, b) => a - b));
    // The cancelled upload stored nothing: one submission, with its one file.
    expect(await count(formId)).toBe(1);
    expect(await d.t.count('submission_files where submission_id in (select id from submissions where form_id = ?)', [formId])).toBe(1);
  });

  it('without JavaScript the same page posts as plain HTML and lands on lfk’s thank-you page', async () => {
    const formId = await newForm();
    const path = servePage(plainForm(formId));
    const context = await d.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${siteOrigin}${path}`);
      await page.getByLabel('Your email').fill('ada@example.com');
      await page.getByRole('button', { name: 'Send' }).click();
      await see(page.getByRole('heading', { name: 'Thank you' }));
      expect(page.url().startsWith(d.url)).toBe(true);
    } finally {
      await context.close();
    }
    expect(await count(formId)).toBe(1);
  });

  it('on an origin the form does not allow: a clear message in the console, a plain one for the visitor, nothing stored', async () => {
    const formId = await newForm();
    const path = servePage(plainForm(formId));
    const page = await d.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${otherOrigin}${path}`);
    await eventually(() => consoleErrors.some((text) => text.includes(`${otherOrigin} is not one of the allowed origins of form ${formId}`))).toBe(true);
    await page.evaluate(() =>
      document.addEventListener('lfk:error', (event) => {
        (window as unknown as { refused: unknown }).refused = (event as CustomEvent).detail;
      }),
    );
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('status').getByText('This form cannot be sent from this page.'));
    await eventually(() => page.evaluate(() => (window as unknown as { refused?: { status: number; error: { code: string } } }).refused)).toMatchObject({
      status: 0,
      error: { code: 'origin_not_allowed' },
    });
    await expectAccessible(page, 'kit-origin-refused');
    expect(await count(formId)).toBe(0);
  });

  it('adds the honeypot the form names, out of sight; a bot that fills it is stored as spam, as a plain post would be', async () => {
    const formId = await newForm({ spam: { honeypot: 'website' } });
    const page = await visit(siteOrigin, servePage(plainForm(formId)));
    const honeypot = page.locator('input[name="website"]');
    await eventually(() => honeypot.count()).toBe(1);
    expect(await honeypot.getAttribute('tabindex')).toBe('-1');
    expect(await honeypot.getAttribute('autocomplete')).toBe('off');
    expect(await honeypot.evaluate((input) => input.closest('[aria-hidden="true"]') !== null)).toBe(true);
    // No captcha on this form: no provider's script is loaded.
    expect(await page.locator('script[src*="turnstile"], script[src*="hcaptcha"], script[src*="recaptcha"]').count()).toBe(0);
    await expectAccessible(page, 'kit-honeypot');
    await page.getByLabel('Your email').fill('bot@example.com');
    await honeypot.fill('https://spam.example', { force: true });
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByText('Thank you: your answers were sent.'));
    expect(await d.t.sql('select status from submissions where form_id = ?', [formId])).toEqual([{ status: 'spam' }]);
  });

  it('a closed form says the owner’s message, and stores nothing', async () => {
    const formId = await newForm({ closed: true, closed_message: 'We are on holiday until Monday.' });
    const page = await visit(siteOrigin, servePage(plainForm(formId)));
    await see(page.getByRole('status').getByText('We are on holiday until Monday.'));
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('status').getByText('We are on holiday until Monday.'));
    await eventually(() => page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(await count(formId)).toBe(0);
  });

  it('a data-lfk-form form added later is enhanced by window.lfk.enhance, and goes to the server the kit came from', async () => {
    const formId = await newForm();
    const page = await visit(siteOrigin, servePage(''));
    await page.evaluate((id) => {
      const form = document.createElement('form');
      form.setAttribute('data-lfk-form', id);
      form.innerHTML = '<label>Your email <input name="email" type="email" required></label><button>Send</button>';
      document.querySelector('main')!.append(form);
      (window as unknown as { lfk: { enhance(form: HTMLFormElement): boolean } }).lfk.enhance(form);
    }, formId);
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByText('Thank you: your answers were sent.'));
    expect(await count(formId)).toBe(1);
  });

  it('renders the form’s captcha from its description, loading the provider only then, and sends its token', async () => {
    const formId = await newForm({ spam: { captcha: { provider: 'turnstile', site_key: CAPTCHA_SITE_KEY, secret: CAPTCHA_SECRET } } });
    const page = await d.newPage();
    const loaded: string[] = [];
    await page.route('https://challenges.cloudflare.com/**', (route) => {
      loaded.push(route.request().url());
      return route.fulfill({ contentType: 'text/javascript', body: FAKE_TURNSTILE });
    });
    await page.goto(`${siteOrigin}${servePage(plainForm(formId))}`);
    const widget = page.locator('form .cf-turnstile');
    await eventually(() => widget.getAttribute('data-sitekey')).toBe(CAPTCHA_SITE_KEY);
    await eventually(() => page.locator('input[name="cf-turnstile-response"]').count()).toBe(1);
    expect(loaded).toEqual(['https://challenges.cloudflare.com/turnstile/v0/api.js']);
    // Refused for its phone number: the token was spent, and the widget is reset for the next attempt.
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByLabel('Phone number').fill('call me');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('status').getByText('Please check your answers.'));
    await page.getByLabel('Phone number').fill('+44 20 7946 0958');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByText('Thank you: your answers were sent.'));
    expect(await d.t.sql('select status from submissions where form_id = ?', [formId])).toEqual([{ status: 'ok' }]);
    expect(captcha.requests.length).toBeGreaterThan(0);
  });

  it('keeps a draft as the visitor types (never a private field), puts it back after a reload, and the submission takes it', async () => {
    const formId = await newForm({
      drafts: { enabled: true, ttl_days: 7 },
      schema: [
        { name: 'email', type: 'email', required: true, label: 'Your email' },
        { name: 'message', type: 'textarea', label: 'Message' },
        { name: 'newsletter', type: 'checkbox', label: 'Send me news' },
        { name: 'card', type: 'text', label: 'Card number', private: true },
      ],
    });
    const form =
      `<form method="post" action="${d.url}/v1/forms/${formId}/submissions">` +
      '<label>Your email <input name="email" type="email" required></label>' +
      '<label>Message <textarea name="message"></textarea></label>' +
      '<label><input name="newsletter" type="checkbox"> Send me news</label>' +
      '<label>Card number <input name="card"></label><button>Send</button></form>';
    const path = servePage(form);
    const drafts = async () => {
      const listed = await d.t.request('GET', `/v1/forms/${formId}/drafts`, { token });
      expect(listed.status, listed.body).toBe(200);
      return (listed.json.data as { data: Record<string, unknown> }[]).map((draft) => draft.data);
    };
    const page = await visit(siteOrigin, path);
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByLabel('Message').fill('Half a thought');
    await page.getByLabel('Send me news').check();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await eventually(drafts).toEqual([{ email: 'ada@example.com', message: 'Half a thought', newsletter: true }]);

    // The tab is closed and opened again: the answers are back, the card number is not.
    await page.addInitScript(() => addEventListener('lfk:restore', (e) => Object.assign(window, { restored: (e as CustomEvent).detail.data })));
    await page.reload();
    await eventually(() => page.getByLabel('Message').inputValue()).toBe('Half a thought');
    expect(await page.evaluate(() => (window as { restored?: unknown }).restored)).toEqual({
      email: 'ada@example.com',
      message: 'Half a thought',
      newsletter: true,
    });
    expect(await page.getByLabel('Your email').inputValue()).toBe('ada@example.com');
    expect(await page.getByLabel('Send me news').isChecked()).toBe(true);
    expect(await page.getByLabel('Card number').inputValue()).toBe('');

    // Saved again as the visitor goes on: one draft, the newest values.
    await page.getByLabel('Message').fill('A whole thought');
    await eventually(drafts).toEqual([{ email: 'ada@example.com', message: 'A whole thought', newsletter: true }]);

    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('status').getByText('Thank you: your answers were sent.'));
    expect(await count(formId)).toBe(1);
    expect(await drafts()).toEqual([]);
    expect(await page.evaluate((id) => localStorage.getItem(`lfk:draft:${id}`), formId)).toBeNull();
    // Opened again after sending: a blank form.
    await page.reload();
    await eventually(() => page.evaluate(() => typeof (window as { lfk?: unknown }).lfk)).toBe('object');
    expect(await page.getByLabel('Message').inputValue()).toBe('');
  });

  it('emails a link to finish later; the link opens the page on another device with the answers back', async () => {
    const formId = await newForm({
      drafts: { enabled: true, email_link: true },
      schema: [
        { name: 'email', type: 'email', required: true, label: 'Your email' },
        { name: 'message', type: 'textarea', label: 'Message' },
      ],
    });
    const path = servePage(
      `<form method="post" action="${d.url}/v1/forms/${formId}/submissions">` +
        '<label>Your email <input name="email" type="email" required></label>' +
        '<label>Message <textarea name="message"></textarea></label><button>Send</button></form>',
    );
    const page = await visit(siteOrigin, `${path}?step=2`);
    const to = `later-${formId.slice(-8)}@example.com`;
    await page.getByLabel('Your email').fill(to);
    await page.getByLabel('Message').fill('To be finished on my phone');
    await page.getByText('Finish later').click();
    // The address typed in the form is offered (when the box's toggle event has run, after the click).
    await until('the typed address offered', async () => (await page.getByLabel('Send the link to').inputValue()) === to);
    await expectAccessible(page, 'kit-finish-later');
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await see(page.getByRole('status').getByText(`We emailed ${to} a link to finish later, on this or another device.`));
    const email = await until('the draft link', () => emailsSentTo(d.t, to, 'draft_link')[0]);
    const link = new RegExp(`${siteOrigin}${path}\\?step=2#lfk-draft=${formId}:lfp_\\w+`).exec(email.text)?.[0];
    expect(link, email.text).toBeDefined();

    // Another device: a browser that has never seen the page follows the link.
    const phone = await d.newPage();
    await phone.goto(link!);
    await eventually(() => phone.getByLabel('Message').inputValue()).toBe('To be finished on my phone');
    expect(await phone.getByLabel('Your email').inputValue()).toBe(to);
    // The token leaves the address bar (and the history), and this browser keeps the draft.
    expect(phone.url()).toBe(`${siteOrigin}${path}?step=2`);
    expect(await phone.evaluate((id) => localStorage.getItem(`lfk:draft:${id}`), formId)).toMatch(/^lfp_/);
    await phone.getByRole('button', { name: 'Send' }).click();
    await see(phone.getByRole('status').getByText('Thank you: your answers were sent.'));
    expect(await count(formId)).toBe(1);
    expect(await d.t.count('drafts where form_id = ?', [formId])).toBe(0);
  });

  it('a script whose integrity hash does not match is not run: the form still posts as plain HTML', async () => {
    const formId = await newForm();
    const tampered = scriptTag.replace(/integrity="sha384-[^"]+"/, `integrity="sha384-${Buffer.alloc(48).toString('base64')}"`);
    const page = await d.newPage();
    await page.goto(`${siteOrigin}${servePage(plainForm(formId), tampered)}`);
    expect(await page.evaluate(() => typeof (window as { lfk?: unknown }).lfk)).toBe('undefined');
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('heading', { name: 'Thank you' }));
    expect(await count(formId)).toBe(1);
  });
});
