/**
 * Two-factor authentication in a real Chromium: an authenticator app set up from the account page
 * (its QR code and key, a first code, the recovery codes shown once); signing in then asks for a
 * code, or a recovery code, in place; turned off, it asks no more. And sudo mode: what needs a
 * recent sign-in asks the person to confirm it's them in a dialog, then goes ahead by itself.
 */
import { authenticatorCode, createContactForm, ORIGIN, PASSWORD, submit } from '@lfk/server/testing';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  type Dashboard,
  describeInBrowser,
  enterPassword,
  eventually,
  expectAccessible,
  focused,
  gone,
  PHONE,
  see,
  sessionOf,
  signInInBrowser,
  signOut,
  useDashboard,
  workspaceOf,
} from './fixtures.ts';

/** The second step of signing in, answered with a recovery code instead of the app's. */
async function useRecoveryCode(page: Page, code: string): Promise<void> {
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Six digits that are none of the app's codes around now: refused whatever the clocks say. */
async function wrongCode(secret: string): Promise<string> {
  const near = new Set(await Promise.all([-2, -1, 0, 1, 2, 3].map((steps) => authenticatorCode(secret, steps))));
  let n = 0;
  while (near.has(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}

/** Makes the sessions' last proof of their person (`email`'s) an hour old: past sudo mode's window. */
const ageSessions = (d: Dashboard, email: string) =>
  d.t.sql('update sessions set authenticated_at = ? where user_id in (select id from users where email = ?)', [new Date(Date.now() - 3_600_000), email]);

describeInBrowser('two-factor authentication', () => {
  const d = useDashboard();

  it('set up an app (QR code, key, first code) → recovery codes once → sign in with a code, then a recovery code → turn it off', async () => {
    const { page, email } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    // Another session of this person, signed in elsewhere: setting the app up signs it out.
    const elsewhere = (await d.t.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } })).json.session_token as string;

    await page.getByRole('link', { name: `Your account: ${email}` }).click();
    const section = page.getByRole('region', { name: 'Security' });
    await see(section.getByText('Signing in asks for your password only.'));

    // Set up, then abandoned halfway: nothing is on.
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const setup = page.getByRole('dialog', { name: 'Set up an authenticator app' });
    await see(setup.getByRole('img', { name: 'QR code to set up your authenticator app' }));
    await setup.getByRole('button', { name: 'Cancel' }).click();
    await gone(setup);
    expect((await d.t.request('GET', '/v1/auth/two-factor', { token: elsewhere })).json.enabled).toBe(false);

    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await see(setup.getByRole('img', { name: 'QR code to set up your authenticator app' }));
    // The key as typed into an app: grouped by four for reading; the app takes it without the spaces.
    const shownKey = (await setup.locator('code.totp-secret').textContent()) ?? '';
    expect(shownKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    const secret = shownKey.replaceAll(' ', '');
    await expectAccessible(page, 'two-factor-setup');

    await setup.getByLabel('Authentication code').fill(await wrongCode(secret));
    await setup.getByRole('button', { name: 'Turn on' }).click();
    await see(setup.getByText('The code is not right'));
    expect((await d.t.request('GET', '/v1/auth/two-factor', { token: await sessionOf(page) })).json.enabled).toBe(false);
    await setup.getByLabel('Authentication code').fill(await authenticatorCode(secret));
    await setup.getByRole('button', { name: 'Turn on' }).click();

    const shown = page.getByRole('dialog', { name: 'Your recovery codes' });
    await see(shown.getByText('Your other sessions were signed out.'));
    const codes = (await shown.getByLabel('Recovery codes').inputValue()).split('\n');
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    // The setup gave way to the codes: the focus is on them.
    await eventually(() => focused(shown.getByRole('textbox', { name: 'Recovery codes' }))).toBe(true);
    await expectAccessible(page, 'two-factor-recovery-codes');
    expect((await d.t.request('GET', '/v1/auth/session', { token: elsewhere })).status).toBe(401);
    // Escape asks before the codes are gone for good.
    await page.keyboard.press('Escape');
    await see(shown.getByRole('alert').getByText('Close without the recovery codes?'));
    await shown.getByRole('button', { name: 'Stay' }).click();
    await shown.getByRole('button', { name: 'I have saved them' }).click();
    await gone(shown);
    await see(section.getByText('10 of 10 left.'));
    expect(await page.content()).not.toContain(codes[0]);
    await expectAccessible(page, 'account-two-factor-on');

    // Signing in asks for a code, in place: a wrong one is refused in words, the app's next one signs in.
    await signOut(page);
    await enterPassword(page, email);
    const code = page.getByLabel('Authentication code');
    await see(code);
    await eventually(() => focused(page.getByLabel('Authentication code'))).toBe(true);
    await expect.poll(() => code.getAttribute('autocomplete')).toBe('one-time-code');
    await expectAccessible(page, 'sign-in-second-factor');
    await code.fill(await wrongCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByText('That code is not right, or it was already used.'));
    await code.fill(await authenticatorCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));

    // A recovery code instead, on a phone.
    await signOut(page);
    await page.setViewportSize(PHONE);
    await enterPassword(page, email);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await eventually(() => focused(page.getByLabel('Recovery code'))).toBe(true);
    await expectAccessible(page, 'sign-in-recovery-code-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByLabel('Recovery code').fill(codes[0]!.toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));

    await page.goto(`/w/${workspaceId}/account`);
    await see(section.getByText('9 of 10 left.'));
    await expectAccessible(page, 'account-two-factor-on-phone');

    // Turned off (asked first), signing in asks for the password only.
    await section.getByRole('button', { name: 'Turn off' }).click();
    const confirm = page.getByRole('dialog', { name: 'Turn off the authenticator app?' });
    await confirm.getByRole('button', { name: 'Turn off' }).click();
    await see(section.getByText('Your authenticator app is turned off.'));
    await see(section.getByText('Signing in asks for your password only.'));
    await see(section.getByRole('button', { name: 'Set up an authenticator app' }));
    expect((await d.t.request('GET', '/v1/auth/two-factor', { token: await sessionOf(page) })).json).toMatchObject({
      enabled: false,
      recovery_codes: { remaining: 0 },
    });
    await signOut(page);
    await signInInBrowser(page, email);
  });

  it('a used recovery code, and a sign-in left too long, are told in words', async () => {
    const { page, email } = await d.ownerPage();
    const { recoveryCodes } = await d.t.enableAuthenticator(await sessionOf(page));
    await signOut(page);

    await enterPassword(page, email);
    await useRecoveryCode(page, recoveryCodes[0]!);
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
    await signOut(page);

    await enterPassword(page, email);
    await useRecoveryCode(page, recoveryCodes[0]!);
    await see(page.getByText('That recovery code is not right, or it was already used.'));
    // The way back to the app's code is there too.
    await page.getByRole('button', { name: 'Use your authenticator app instead' }).click();
    await eventually(() => focused(page.getByLabel('Authentication code'))).toBe(true);

    // The sign-in's challenge ends (here: as if its 5 minutes were over): back to the password, saying why.
    await d.t.sql("update auth_challenges set expires_at = ? where purpose = 'second_factor' and user_id in (select id from users where email = ?)", [
      new Date(Date.now() - 1000),
      email,
    ]);
    await page.getByLabel('Authentication code').fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByRole('alert').getByText('The sign-in has expired or was already completed. Sign in again.'));
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await eventually(() => focused(page.getByLabel('Password'))).toBe(true);
  });

  it('new recovery codes: asked first (and, long after signing in, asked who you are), shown once; the earlier ones work no more', async () => {
    const { page, email } = await d.ownerPage();
    const { recoveryCodes } = await d.t.enableAuthenticator(await sessionOf(page));
    await ageSessions(d, email);
    await page.goto(`/w/${workspaceOf(page)}/account`);
    const section = page.getByRole('region', { name: 'Security' });
    await see(section.getByText('10 of 10 left.'));

    await section.getByRole('button', { name: 'Make new recovery codes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Make new recovery codes?' });
    await confirm.getByRole('button', { name: 'Make new codes' }).click();
    // Over the question, sudo mode's: the password, then the codes come without another click.
    const sudo = page.getByRole('dialog', { name: "Confirm it's you" });
    await sudo.getByLabel('Password').fill(PASSWORD);
    await sudo.getByRole('button', { name: 'Confirm' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new recovery codes' });
    const field = shown.getByRole('textbox', { name: 'Recovery codes' });
    await see(field);
    await eventually(() => focused(field)).toBe(true);
    const codes = (await field.inputValue()).split('\n');
    expect(codes).toHaveLength(10);
    expect(codes).not.toContain(recoveryCodes[0]);
    await expectAccessible(page, 'two-factor-new-recovery-codes');
    await shown.getByRole('button', { name: 'I have saved them' }).click();
    await gone(shown);
    await gone(confirm);

    await signOut(page);
    await enterPassword(page, email);
    await useRecoveryCode(page, recoveryCodes[0]!);
    await see(page.getByText('That recovery code is not right, or it was already used.'));
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
  });

  it('sudo mode: making a key long after signing in asks for the password in a dialog, then makes it without another click', async () => {
    const { page, email } = await d.ownerPage();
    await ageSessions(d, email);

    await page.getByRole('button', { name: 'Create key' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API key' });
    await create.getByLabel('Name').fill('deploy bot');
    await create.getByRole('button', { name: 'Create key' }).click();
    const sudo = page.getByRole('dialog', { name: "Confirm it's you" });
    await see(sudo.getByLabel('Password'));
    await eventually(() => focused(sudo.getByLabel('Password'))).toBe(true);
    // No authenticator app: the password is the one way.
    await expect.poll(() => sudo.getByRole('button', { name: /authenticator app/ }).count()).toBe(0);
    await expectAccessible(page, 'sudo-mode-dialog');

    await sudo.getByLabel('Password').fill('not my password');
    await sudo.getByRole('button', { name: 'Confirm' }).click();
    await see(sudo.getByText('Is not your password.'));
    await sudo.getByLabel('Password').fill(PASSWORD);
    await sudo.getByRole('button', { name: 'Confirm' }).click();
    await gone(sudo);
    await see(page.getByRole('dialog', { name: 'Your new API key' }).getByText('You will not see it again'));
    expect(await d.t.count('api_keys where workspace_id = ?', [workspaceOf(page)])).toBe(1);
    await page.getByRole('button', { name: 'I have copied it' }).click();

    // Cancelled, nothing is made, and the form says why.
    await ageSessions(d, email);
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Create key' }).click();
    await create.getByLabel('Name').fill('second bot');
    await create.getByRole('button', { name: 'Create key' }).click();
    await see(sudo.getByLabel('Password'));
    await expectAccessible(page, 'sudo-mode-dialog-phone');
    await sudo.getByRole('button', { name: 'Cancel' }).click();
    await gone(sudo);
    await see(create.getByText("Not done: this needs you to confirm it's you first."));
    await eventually(() => focused(create.getByRole('button', { name: 'Create key' }))).toBe(true);
    expect(await d.t.count('api_keys where workspace_id = ?', [workspaceOf(page)])).toBe(1);
  });

  it('sudo mode: an export long after signing in asks, confirmed with a code from the app, then downloads', async () => {
    const { page, email } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const token = await sessionOf(page);
    const { secret } = await d.t.enableAuthenticator(token);
    const form = await createContactForm(d.t, { token, workspaceId });
    expect((await submit(d.t, form.id, { name: 'Ada', email: 'ada@example.com', message: 'Hello' }, { origin: ORIGIN })).status).toBe(201);
    await ageSessions(d, email);

    await page.goto(`/w/${workspaceId}/forms/${form.id}/submissions`);
    await see(page.getByRole('cell', { name: 'Ada' }));
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const sudo = page.getByRole('dialog', { name: "Confirm it's you" });
    await sudo.getByRole('button', { name: 'Use a code from your authenticator app instead' }).click();
    await eventually(() => focused(sudo.getByLabel('Authentication code'))).toBe(true);
    await expectAccessible(page, 'sudo-mode-dialog-code');
    await sudo.getByLabel('Authentication code').fill(await wrongCode(secret));
    await sudo.getByRole('button', { name: 'Confirm' }).click();
    await see(sudo.getByText('The code is not right, or it was already used.'));
    await sudo.getByLabel('Authentication code').fill(await authenticatorCode(secret, 1));
    const [download] = await Promise.all([page.waitForEvent('download'), sudo.getByRole('button', { name: 'Confirm' }).click()]);
    expect(download.suggestedFilename()).toBe(`${form.id}-submissions.csv`);
    const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    expect(csv).toContain('ada@example.com');
    await gone(sudo);
    await gone(page.getByRole('alert'));
    await eventually(() => focused(page.getByRole('button', { name: 'Export CSV' }))).toBe(true);
  });

  it('sudo mode: making a member an owner long after signing in asks who you are, then makes them one', async () => {
    const { page, email } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const colleague = await d.t.signup();
    await d.t.addMember(workspaceId, colleague.email, 'member');
    await ageSessions(d, email);
    // A fresh load: the page's member list was read before they were added.
    await page.goto(`/w/${workspaceId}/members`);
    await page.getByLabel(`Role of ${colleague.email}`).selectOption('owner');
    await page
      .getByRole('dialog', { name: `Make ${colleague.email} an owner?` })
      .getByRole('button', { name: 'Make owner' })
      .click();
    const sudo = page.getByRole('dialog', { name: "Confirm it's you" });
    await see(sudo.getByLabel('Password'));
    expect(await d.t.count("memberships where workspace_id = ? and role = 'owner'", [workspaceId])).toBe(1);
    await sudo.getByLabel('Password').fill(PASSWORD);
    await sudo.getByRole('button', { name: 'Confirm' }).click();
    await gone(sudo);
    await see(page.getByText(`${colleague.email} is now an owner.`));
    expect(await d.t.count("memberships where workspace_id = ? and role = 'owner'", [workspaceId])).toBe(2);
  });
});
