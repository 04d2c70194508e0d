/**
 * Approving a device's sign-in (`lfk login --web`) in a real Chromium: the page a device names leads
 * through sign-in to a field where the person types the device's code (no link carries it); the
 * request is shown with where and when it was asked from; approving gives the device a session,
 * denying tells it no; a link that carries a code does not fill it in.
 */
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, newEmail, PASSWORD, see, signInInBrowser, useDashboard } from './fixtures.ts';

interface Started {
  device_code: string;
  user_code: string;
  verification_url: string;
}

describeInBrowser('signing a device in from the dashboard', () => {
  const d = useDashboard();

  /** What the CLI does first: a request, with the link and the code it prints. */
  async function startDeviceLogin(deviceName: string): Promise<Started> {
    const res = await fetch(`${d.url}/v1/auth/device-logins`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_name: deviceName }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as Started;
  }

  /** A page signed in as a new person, who approves or denies. */
  async function signedInPage() {
    const email = newEmail('device');
    await d.t.signup(email);
    const page = await d.newPage();
    await signInInBrowser(page, email);
    return page;
  }

  /** What the CLI polls with. */
  async function poll(deviceCode: string) {
    const res = await fetch(`${d.url}/v1/auth/device-logins/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_code: deviceCode }),
    });
    return { status: res.status, json: (await res.json()) as { user?: { id: string }; session_token?: string; error?: { code: string } } };
  }

  it('the page leads through sign-in to the code, typed; the request shows where and when it came from; Approve gives the device a session', async () => {
    const account = await d.t.signup(newEmail('device'));
    const started = await startDeviceLogin('lfk CLI on build-box');
    expect(started.verification_url).toBe(`${d.url}/device`);

    const page = await d.newPage();
    await page.goto(started.verification_url);
    await see(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await see(page.getByRole('heading', { level: 1, name: 'Sign in a device' }));
    await page.getByLabel('Code shown on your device').fill(started.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await see(page.getByText('lfk CLI on build-box'));
    await see(page.getByText(started.user_code, { exact: true }));
    await see(page.getByText('127.0.0.1', { exact: true }));
    await see(page.getByText('seconds ago').or(page.getByText('now')).first());
    await expectAccessible(page, 'device-approve');
    expect((await poll(started.device_code)).json.error?.code).toBe('authorization_pending');

    await page.getByRole('button', { name: 'Approve' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Device signed in' }));
    const got = await poll(started.device_code);
    expect(got.status).toBe(200);
    expect(got.json.user?.id).toBe(account.userId);
    expect(got.json.session_token).toMatch(/^lfs_/);
  });

  it('Deny: the device is refused; a typed code (any case) finds the request; an unknown code is explained', async () => {
    const page = await signedInPage();

    const started = await startDeviceLogin('a stranger’s laptop');
    await page.goto('/device');
    await page.getByLabel('Code shown on your device').fill(started.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await see(page.getByText('a stranger’s laptop'));
    await page.getByRole('button', { name: 'Deny' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Request denied' }));
    const refused = await poll(started.device_code);
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe('device_login_denied');

    await page.goto('/device');
    await page.getByLabel('Code shown on your device').fill('BCDF-GHJK');
    await page.getByRole('button', { name: 'Continue' }).click();
    await see(page.getByText('This code is unknown, or it has expired.'));
    await expectAccessible(page, 'device-unknown-code');
  });

  it('a link that carries a code (someone else’s request, sent to you) is not filled in: the page asks for the code your device shows', async () => {
    const page = await signedInPage();

    const phished = await startDeviceLogin('lfk CLI on your laptop');
    await page.goto(`/device?code=${phished.user_code}`);
    await see(page.getByText('This link came with a code. Type the code your own device shows instead'));
    expect(await page.getByLabel('Code shown on your device').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    const pending = await poll(phished.device_code);
    expect(pending.json.error?.code).toBe('authorization_pending');
  });
});
