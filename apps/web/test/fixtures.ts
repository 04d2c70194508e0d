import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { KIT_DIST } from '@lfk/browser/build';
import { freePort, linkTokenSentTo, PASSWORD, startTestServer, type TestServer, type TestServerOptions } from '@lfk/server/testing';
import { type Browser, type BrowserContext, type CDPSession, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { DASHBOARD_DIST } from '../scripts/dashboard-build.ts';

export { PASSWORD };

/** How long a wait may take on a loaded machine: a limit, never a pause. */
const WAIT_MS = 30_000;

/** Waits until the element is shown (Playwright's auto-waiting); fails after a generous limit. */
export async function see(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible', timeout: WAIT_MS });
  return locator;
}

/** Waits until no such element is shown. */
export async function gone(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'hidden', timeout: WAIT_MS });
}

/** Retries `probe` until `expected` holds (vitest's poll); for values that are not visibility. */
export const eventually = <T>(probe: () => T | Promise<T>) => expect.poll(probe, { timeout: WAIT_MS, interval: 100 });

const CHROMIUM = inject('chromium');

/** A suite that needs a browser: skipped (global-setup said why, once) when there is none. */
export const describeInBrowser = CHROMIUM ? describe : describe.skip;

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const SCREENSHOTS = join(import.meta.dirname, '../../../docs/screenshots');
const AXE_RESULTS = join(import.meta.dirname, '../.axe-results');

export interface Dashboard {
  t: TestServer;
  /**
   * `http://127.0.0.1:port` (or `http://localhost:port`, with `host: 'localhost'`), the server's own
   * origin: its public URL (`LFK_PUBLIC_URL`), whose cookie, CSRF rule and passkeys' RP ID are for this one.
   */
  url: string;
  browser: Browser;
  /** A fresh browser profile (no cookies) at desktop or phone size. */
  newPage(viewport?: Viewport): Promise<Page>;
  /**
   * A new account signed up through the sign-up page, in a fresh profile: the owner of its
   * personal workspace, on that workspace's API keys page. Its address is confirmed with
   * the link emailed at sign-up (keys, webhooks and invitations need it), unless `confirmed` is false.
   */
  ownerPage(options?: { viewport?: Viewport; name?: string; confirmed?: boolean }): Promise<{ page: Page; email: string }>;
  /** Presses the "Verify" button of the link emailed to `email` at sign-up, as its person does (here, without a page). */
  confirmAddress(email: string): Promise<void>;
  close(): Promise<void>;
}

type Viewport = { width: number; height: number };

export interface DashboardOptions extends TestServerOptions {
  /**
   * The host name the dashboard is opened at, and the server's public URL names: `127.0.0.1` by
   * default (`LFK_PUBLIC_URL` set to it); `localhost` for passkeys, which browsers refuse at an IP
   * address (their RP ID is the public URL's host), with `LFK_PUBLIC_URL` unset as `npm start` has
   * it. The server listens on 127.0.0.1 either way, which `localhost` reaches.
   */
  host?: '127.0.0.1' | 'localhost';
}

/**
 * The worker's Chromium, launched by the first file that needs it and shared by the files after
 * (each works in browser contexts of its own, which share nothing). Playwright closes it when the
 * worker exits.
 */
let sharedBrowser: Promise<Browser> | undefined;

/** The real server, listening on a port, serving the built dashboard and browser kit, on the worker's emptied database; and the Chromium. */
async function startDashboard(env: Record<string, string> = {}, { host = '127.0.0.1', ...options }: DashboardOptions = {}): Promise<Dashboard> {
  const port = await freePort();
  const url = `http://${host}:${port}`;
  // At localhost the public URL is left to the server, as `npm start` leaves it: derived, it names
  // localhost (the passkeys' RP ID). At 127.0.0.1 it is set to say so.
  const publicUrl = host === 'localhost' ? '' : url;
  const t = await startTestServer(
    { PORT: String(port), LFK_PUBLIC_URL: publicUrl, ...env },
    {
      ...options,
      config: { dashboardDir: DASHBOARD_DIST, kitDir: KIT_DIST },
    },
  );
  await t.server.listen();
  sharedBrowser ??= chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox'] });
  const browser = await sharedBrowser;
  const contexts: BrowserContext[] = [];
  const confirmAddress = async (email: string) => {
    const token = await linkTokenSentTo(t, email, 'account_verification');
    const res = await fetch(`${url}/v1/email-verifications/${token}`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`address confirmation failed: ${res.status}`);
  };
  const newPage = async (viewport = DESKTOP) => {
    const context = await browser.newContext({ baseURL: url, viewport });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.setDefaultNavigationTimeout(60_000);
    return page;
  };
  return {
    t,
    url,
    browser,
    newPage,
    async ownerPage({ viewport = DESKTOP, name, confirmed = true }: { viewport?: Viewport; name?: string; confirmed?: boolean } = {}) {
      const page = await newPage(viewport);
      const email = newEmail();
      await signUpInBrowser(page, email, name);
      // The dashboard read the session before: it reads it again, confirmed.
      if (confirmed) await confirmAddress(email);
      await page.goto(`/w/${workspaceOf(page)}/keys`);
      await see(page.getByRole('heading', { level: 1, name: 'API keys' }));
      return { page, email };
    },
    confirmAddress,
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await t.close();
    },
  };
}

/**
 * The dashboard of the enclosing file or describe block (`startDashboard` in a `beforeAll`, closed
 * in an `afterAll`). The handle is filled in once it has started: use it in tests, not while the file loads.
 */
export function useDashboard(env: Record<string, string> = {}, options: DashboardOptions = {}): Dashboard {
  const handle = {} as Dashboard;
  let started: Dashboard | undefined;
  beforeAll(async () => {
    started = await startDashboard(env, options);
    Object.assign(handle, started);
  });
  afterAll(() => started?.close());
  return handle;
}

let counter = 0;
export const newEmail = (who = 'owner') => `${who}-${Date.now().toString(36)}-${++counter}@example.com`;

/** Signs up through the sign-up page; resolves on the first signed-in page. */
export async function signUpInBrowser(page: Page, email: string, name?: string): Promise<void> {
  await page.goto('/sign-up');
  if (name) await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
}

export async function signInInBrowser(page: Page, email: string): Promise<void> {
  await page.goto('/sign-in');
  await enterPassword(page, email);
  await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
}

/** The password step of signing in, on the sign-in page; what comes next (the forms, a second factor) is the test's. */
export async function enterPassword(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs out from the banner: the sign-in page follows. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await see(page.getByRole('heading', { level: 1, name: 'Sign in' }));
}

/** Whether the element has the page's focus. */
export const focused = (element: Locator) => element.evaluate((e) => e === document.activeElement);

/** A passkey a virtual authenticator holds (`WebAuthn.Credential`, the fields tests read). */
export interface HeldCredential {
  credentialId: string;
  rpId?: string;
  isResidentCredential: boolean;
  signCount: number;
}

export interface VirtualAuthenticator {
  /** The passkeys it holds now. */
  credentials(): Promise<HeldCredential[]>;
  /** Forgets them all, as a person deleting them from their device. */
  clear(): Promise<void>;
}

/**
 * A platform authenticator for the page (Chromium's virtual one, through the DevTools protocol):
 * it makes and signs with real passkeys (discoverable, user verified), answering at once as if the
 * person touched it. The page's tab keeps it across navigations; a dashboard opened at a domain
 * name can use it (`useDashboard(env, { host: 'localhost' })`).
 */
export async function virtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async credentials() {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
    async clear() {
      await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    },
  };
}

/** The page's session token, from its cookie: for setting things up through the API as that person. */
export async function sessionOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'lfk_session');
  if (!cookie) throw new Error('not signed in');
  return cookie.value;
}

/** The workspace id in the page's URL (`/w/ws_…/…`). */
export function workspaceOf(page: Page): string {
  const match = /\/w\/(ws_[0-9A-Za-z]+)/.exec(page.url());
  if (!match) throw new Error(`no workspace in ${page.url()}`);
  return match[1]!;
}

/**
 * axe-core on the page as it is now: no serious or critical violation is allowed. Every
 * violation found (any impact) is written down for the report.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const violations = results.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
  await mkdir(AXE_RESULTS, { recursive: true });
  await writeFile(join(AXE_RESULTS, `${name}.json`), `${JSON.stringify({ page: name, passes: results.passes.length, violations }, null, 2)}\n`);
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking, `${name}: ${JSON.stringify(blocking)}`).toEqual([]);
}

/**
 * A screenshot for the README (`docs/screenshots/<name>.png`), taken only by `npm run screenshots`
 * (LFK_SCREENSHOTS=1): the tests themselves never change a tracked file.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.LFK_SCREENSHOTS !== '1') return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** An owner's site, on an origin of its own: the visitor's side of the kit and of `@lfk/react`. */
export interface Site {
  /** `http://127.0.0.1:<port>`: the origin forms allow. */
  origin: string;
  /** The same site at `http://localhost:<port>`: an origin no form allows. */
  otherOrigin: string;
  close(): Promise<void>;
}

/** Starts a site on a free port of 127.0.0.1; `handle` answers each request. */
export async function startSite(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<Site> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    otherOrigin: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The contact form those tests put on a site, made through the API in `who`'s workspace and
 * allowing `origin`: "Your email" (required) and "Phone number" (lfk checks it, the browser does
 * not), with "Attachment" when `withFile`; `more` is added to (or replaces) the body. Its id.
 */
export async function createSiteForm(
  t: TestServer,
  who: { token: string; workspaceId: string },
  origin: string,
  { withFile = true, more = {} }: { withFile?: boolean; more?: Record<string, unknown> } = {},
): Promise<string> {
  const created = await t.request('POST', '/v1/forms', {
    token: who.token,
    body: {
      name: 'Contact',
      workspace_id: who.workspaceId,
      allowed_origins: [origin],
      schema: [
        { name: 'email', type: 'email', required: true, label: 'Your email' },
        { name: 'phone', type: 'tel', label: 'Phone number' },
        ...(withFile ? [{ name: 'attachment', type: 'file', label: 'Attachment' }] : []),
      ],
      ...more,
    },
  });
  expect(created.status, created.body).toBe(201);
  return created.json.id as string;
}

/**
 * On a page holding `createSiteForm`'s form (sent in place by the kit or `@lfk/react`): a valid
 * address and a telephone number the browser takes and lfk refuses, sent; the refusal is beside
 * the phone field (`aria-invalid`, the message linked by `aria-describedby`, focus there), and the
 * address is not marked. Answers the phone field's locator.
 */
export async function sendRefusedPhone(page: Page, phoneLabel: string): Promise<Locator> {
  await page.getByLabel('Your email').fill('ada@example.com');
  // The browser does not check a telephone number: lfk does.
  await page.getByLabel(phoneLabel).fill('call me');
  await page.getByRole('button', { name: 'Send' }).click();
  await see(page.getByRole('status').getByText('Please check your answers.'));
  const phone = page.getByLabel(phoneLabel);
  expect(await phone.getAttribute('aria-invalid')).toBe('true');
  const describedBy = (await phone.getAttribute('aria-describedby'))!;
  expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('Must be a telephone number.');
  expect(await focused(phone)).toBe(true);
  expect(await page.getByLabel('Your email').getAttribute('aria-invalid')).toBeNull();
  return phone;
}
