/**
 * Approving a device's sign-in (`lfk login --web`) in a real Chromium: the link a device shows leads
 * through sign-in back to the request; approving gives the device a session, denying tells it no.
 */
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, newEmail, PASSWORD, see, signInInBrowser, useDashboard } from './fixtures.ts';

interface Started {
  device_code: string;
  user_code: string;
  verification_url_complete: string;
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

  /** What the CLI polls with. */
  async function poll(deviceCode: string) {
    const res = await fetch(`${d.url}/v1/auth/device-logins/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_code: deviceCode }),
    });
    return { status: res.status, json: (await res.json()) as { user?: { id: string }; session_token?: string; error?: { code: string } } };
  }

  it('the link leads through sign-in back to the request; Approve gives the device a session as this person', async () => {
    const account = await d.t.signup(newEmail('device'));
    const started = await startDeviceLogin('lfk CLI on build-box');
    expect(started.verification_url_complete).toBe(`${d.url}/device?code=${started.user_code}`);

    const page = await d.newPage();
    await page.goto(started.verification_url_complete);
    await see(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await see(page.getByRole('heading', { level: 1, name: 'Sign in a device' }));
    await see(page.getByText('lfk CLI on build-box'));
    await see(page.getByText(started.user_code, { exact: true }));
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
    const email = newEmail('device');
    await d.t.signup(email);
    const page = await d.newPage();
    await signInInBrowser(page, email);

    const started = await startDeviceLogin('a stranger’s laptop');
    await page.goto('/device');
    await page.getByLabel('Code').fill(started.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await see(page.getByText('a stranger’s laptop'));
    await page.getByRole('button', { name: 'Deny' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Request denied' }));
    const refused = await poll(started.device_code);
    expect(refused.status).toBe(403);
    expect(refused.json.error?.code).toBe('device_login_denied');

    await page.goto('/device?code=BCDF-GHJK');
    await see(page.getByText('This code is unknown, or it has expired.'));
    await expectAccessible(page, 'device-unknown-code');
  });
});
