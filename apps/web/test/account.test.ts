/**
 * A person's own account in a real Chromium: change the password (the current one checked, the
 * other sessions signed out), see where they are signed in, sign one out, or every other one; and,
 * until their address is confirmed, told where keys, webhooks and invitations wait for it.
 */
import { createContactForm, PASSWORD } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, gone, PHONE, see, sessionOf, useDashboard, workspaceOf } from './fixtures.ts';

describeInBrowser('your account', () => {
  const d = useDashboard();

  it('change the password; list the sessions; sign one out, then every other one', async () => {
    const { page, email } = await d.ownerPage();
    // Two more sessions of this person, signed in elsewhere.
    const elsewhere = async (agent: string) =>
      (await d.t.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD }, headers: { 'user-agent': agent } })).json.session_token as string;
    const tablet = await elsewhere(
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    );
    const phone = await elsewhere('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36');

    await page.getByRole('link', { name: `Your account: ${email}` }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Your account' }));
    const sessions = page.getByRole('table', { name: 'Your sessions, newest first' });
    await see(sessions.getByRole('cell', { name: 'This session' }));
    // The browser and system in words, not the User-Agent string.
    await see(sessions.getByRole('cell', { name: 'Safari 17.5 on iOS' }));
    await see(sessions.getByRole('cell', { name: 'Chrome 131 on Android' }));
    await expectAccessible(page, 'account');

    await sessions.getByRole('row').filter({ hasText: 'Safari 17.5 on iOS' }).getByRole('button', { name: 'Sign this out' }).click();
    await see(page.getByText('Signed that session out.'));
    await gone(sessions.getByRole('cell', { name: 'Safari 17.5 on iOS' }));
    expect((await d.t.request('GET', '/v1/auth/session', { token: tablet })).status).toBe(401);

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a new long password');
    await page.getByLabel('New password again').fill('a different one!');
    await page.getByRole('button', { name: 'Change password' }).click();
    await see(page.getByText('The two passwords differ.'));
    await page.getByLabel('New password again').fill('a new long password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await see(page.getByText('Is not your current password.'));
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await see(page.getByText('Password changed. Your other sessions were signed out.'));
    expect((await d.t.request('GET', '/v1/auth/session', { token: phone })).status).toBe(401);
    await gone(sessions.getByRole('cell', { name: 'Chrome 131 on Android' }));
    expect((await d.t.request('POST', '/v1/auth/login', { body: { email, password: 'a new long password' } })).status).toBe(200);

    // The login just made is another session: signed out with every other one.
    await page.reload();
    await page.getByRole('button', { name: 'Sign out every other session' }).click();
    await see(page.getByText('Signed 1 other session out.'));
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await sessions.getByRole('button', { name: 'Sign out' }).click();
    await see(page.getByRole('heading', { name: 'Sign in' }));
  });

  it('`/account`, where the security emails link, opens the account page of the first workspace', async () => {
    const { page, email } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    await page.goto('/account');
    await see(page.getByRole('heading', { level: 1, name: 'Your account' }));
    expect(new URL(page.url()).pathname).toBe(`/w/${workspaceId}/account`);
    await see(page.getByRole('link', { name: `Your account: ${email}` }));
  });

  it('until the address is confirmed, a banner on every page says how; confirmed, it is gone and a key is made', async () => {
    const { page, email } = await d.ownerPage({ confirmed: false });
    const workspaceId = workspaceOf(page);
    const banner = page.getByRole('note', { name: 'Confirm your email address' });
    await see(banner.getByText('not create API keys, add webhooks, set auto-replies or invite anyone'));
    await see(banner.getByText(`Open the link emailed to ${email} when you signed up`));
    await expectAccessible(page, 'api-keys-unconfirmed');
    // Trying anyway: the server's refusal says the same.
    await page.getByRole('button', { name: 'Create key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('too soon');
    await create.getByRole('button', { name: 'Create key' }).click();
    await see(create.getByText('Confirm your email address first'));
    await create.getByRole('button', { name: 'Cancel' }).click();

    const form = await createContactForm(d.t, { token: await sessionOf(page), workspaceId });
    await page.goto(`/w/${workspaceId}/forms/${form.id}/webhooks`);
    await see(banner);
    await page.goto(`/w/${workspaceId}/members`);
    await see(banner);
    await banner.getByRole('button', { name: 'Send a new link' }).click();
    // Sign-up's own link was sent moments ago: a new one waits for the interval, and says so.
    await see(page.getByRole('alert').filter({ hasText: 'try again' }));

    await d.confirmAddress(email);
    await page.goto(`/w/${workspaceId}/keys`);
    await see(page.getByRole('heading', { level: 1, name: 'API keys' }));
    await gone(banner);
    await page.getByRole('button', { name: 'Create key' }).click();
    await create.getByLabel('Name').fill('in time');
    await create.getByRole('button', { name: 'Create key' }).click();
    await see(page.getByRole('dialog', { name: 'Your new API key' }).getByText('You will not see it again'));
    expect(await d.t.count('api_keys where workspace_id = ?', [workspaceId])).toBe(1);
  });
});
