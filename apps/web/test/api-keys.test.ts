/**
 * The API keys page in a real Chromium: a key is shown once and copied, works from a program,
 * stops working the moment it is revoked; the 11th key is explained; a member sees why they
 * cannot manage keys.
 */
import { expect, it } from 'vitest';
import {
  DESKTOP,
  describeInBrowser,
  eventually,
  expectAccessible,
  gone,
  newEmail,
  PHONE,
  screenshot,
  see,
  sessionOf,
  signInInBrowser,
  useDashboard,
  workspaceOf,
} from './fixtures.ts';

describeInBrowser('API keys', () => {
  const d = useDashboard();

  it('sign up → create a key → see it once and copy it → use it → see the form → revoke → its next use is 401', async () => {
    const { page } = await d.ownerPage({ name: 'Ada' });
    await see(page.getByText('No API keys yet.'));
    await see(page.getByText('0 of 10 active'));
    await expectAccessible(page, 'api-keys-empty');

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Name').fill('deploy bot');
    await expectAccessible(page, 'api-keys-create-dialog');
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    await see(shown.getByText('You will not see it again'));
    // The form gave way to the key: the focus is on it, not lost to the page.
    await expect.poll(() => shown.getByLabel(/API key/).evaluate((input) => input === document.activeElement)).toBe(true);
    const key = await shown.getByLabel(/API key/).inputValue();
    expect(key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await see(shown.getByText('Copied to the clipboard.'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectAccessible(page, 'api-keys-shown-once');

    // Escape does not close it at once: the key would be gone for good, so it asks; Stay keeps it.
    await page.keyboard.press('Escape');
    await see(shown.getByRole('alert').getByText('Close without the key? It is shown only now'));
    await shown.getByRole('button', { name: 'Stay' }).click();
    expect(await shown.getByLabel(/API key/).inputValue()).toBe(key);
    // Staying, the focus goes back into the dialog (where it was), never to the page's body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('dialog')?.open === true)).toBe(true);
    // The close button asks too, and staying gives it its focus back.
    await shown.getByRole('button', { name: 'Close', exact: true }).click();
    await shown.getByRole('button', { name: 'Stay' }).click();
    await expect.poll(() => shown.getByRole('button', { name: 'Close', exact: true }).evaluate((b) => b === document.activeElement)).toBe(true);
    await expectAccessible(page, 'api-keys-leave-warning');

    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await gone(shown);
    // Closed is gone: not in the page, the URL, or the browser's storage.
    await see(page.getByRole('row', { name: /deploy bot/ }));
    expect(await page.content()).not.toContain(key);
    expect(page.url()).not.toContain(key);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(key);
    await see(page.getByText('1 of 10 active'));
    await screenshot(page, 'api-keys-desktop');

    // A program uses the key: the form it makes is born in this workspace and listed here.
    const created = await fetch(`${d.url}/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made by the bot', schema: [{ name: 'email', type: 'email', required: true }] }),
    });
    expect(created.status).toBe(201);
    const form = (await created.json()) as { id: string };
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await see(page.getByRole('link', { name: 'Made by the bot' }));

    await page.getByRole('link', { name: 'API keys' }).click();
    const row = page.getByRole('row', { name: /deploy bot/ });
    await row.getByRole('button', { name: 'Revoke deploy bot' }).click();
    const confirm = page.getByRole('dialog', { name: /Revoke “deploy bot” \(lfk_[0-9A-Za-z]{6}…\)\?/ });
    await see(confirm.getByText('stops working at once'));
    await expectAccessible(page, 'api-keys-revoke-dialog');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await see(row.getByText('Revoked'));
    await see(page.getByText('0 of 10 active'));

    const after = await fetch(`${d.url}/v1/forms/${form.id}`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('the 11th active key is refused, and the page says why and what to do', async () => {
    const { page } = await d.ownerPage();
    const session = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    for (let i = 1; i <= 10; i++) await d.t.createKey(session, workspaceId, `service ${i}`);
    await page.reload();
    await see(page.getByText('10 of 10 active'));

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const alert = dialog.getByRole('alert');
    await see(alert.getByText('A workspace can hold 10 active keys at once'));
    await see(alert.getByText('Revoke a key you no longer use'));
    await expectAccessible(page, 'api-keys-limit-reached');
  });

  it('at phone width the keys are readable cards and every action is reachable', async () => {
    const { page } = await d.ownerPage({ viewport: PHONE });
    await d.t.createKey(await sessionOf(page), workspaceOf(page), 'phone key');
    await page.reload();
    const row = page.getByRole('row', { name: /phone key/ });
    await see(row.getByRole('button', { name: 'Revoke phone key' }));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'api-keys-phone');
    await screenshot(page, 'api-keys-phone');
  });

  it('a member who is not an owner sees no key management, and is told why and whom to ask', async () => {
    const ownerEmail = newEmail('owner');
    const memberEmail = newEmail('member');
    const owner = await d.t.signup(ownerEmail);
    await d.t.signup(memberEmail);
    await d.t.addMember(owner.workspaceId, memberEmail, 'member');

    const page = await d.newPage(DESKTOP);
    await signInInBrowser(page, memberEmail);
    await page.goto(`/w/${owner.workspaceId}/keys`);
    await see(page.getByText('Only owners of this workspace can create, see and revoke its API keys.'));
    await see(page.getByText(`ask ${ownerEmail}`));
    await eventually(() => page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    await expectAccessible(page, 'api-keys-member');
  });
});
