/**
 * Passkeys in a real Chromium, made and used by its virtual authenticator (the DevTools protocol's
 * WebAuthn domain: real keys, real signatures, no person to touch it), on a dashboard opened at
 * `localhost`, the host of the server's public URL and so the passkeys' RP ID (left unset, as the
 * README's `npm start` has it: the server names itself localhost). Added from the
 * account page (a first factor's recovery codes shown once), renamed, used to sign in alone and as
 * the second factor after the password, offered to confirm it's you, removed. At an IP address the
 * dashboard offers none, and says why. And a workspace that requires a second factor of its members.
 */
import { PASSWORD } from '@lfk/server/testing';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  type Dashboard,
  DESKTOP,
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
  virtualAuthenticator,
  workspaceOf,
} from './fixtures.ts';

/** Whether the page is no wider than its window (nothing to scroll sideways on a phone). */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Makes the sessions' last proof of their person (`email`'s) an hour old: past sudo mode's window. */
const ageSessions = (d: Dashboard, email: string) =>
  d.t.sql("update sessions set authenticated_at = now() - interval '1 hour' where user_id in (select id from users where email = ?)", [email]);

const securityOf = (page: Page) => page.getByRole('region', { name: 'Security' });

/**
 * Adds a passkey from the account page, as its person does (the page's virtual authenticator makes
 * it); the account's first factor's recovery codes are read and put away. Returns them, if any.
 */
async function addPasskey(page: Page, name: string): Promise<string[] | null> {
  await page.goto(`/w/${workspaceOf(page)}/account`);
  const section = securityOf(page);
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add passkey' }).click();
  const codesOrList = page.getByRole('dialog', { name: 'Your recovery codes' }).or(section.getByRole('cell', { name, exact: true }));
  await see(codesOrList);
  const shown = page.getByRole('dialog', { name: 'Your recovery codes' });
  if (!(await shown.isVisible())) return null;
  const codes = (await shown.getByLabel('Recovery codes').inputValue()).split('\n');
  await shown.getByRole('button', { name: 'I have saved them' }).click();
  await gone(shown);
  return codes;
}

describeInBrowser('passkeys at a domain name', () => {
  const d = useDashboard({}, { host: 'localhost' });

  it('added from the account page (first factor: recovery codes once) → renamed → signs in alone, without the password', async () => {
    const { page, email } = await d.ownerPage();
    expect(new URL(page.url()).hostname).toBe('localhost');
    const device = await virtualAuthenticator(page);
    // Another session of this person: the first factor signs it out.
    const elsewhere = (await d.t.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } })).json.session_token as string;

    await page.getByRole('link', { name: `Your account: ${email}` }).click();
    const section = securityOf(page);
    await see(section.getByText('Signing in asks for your password only.'));
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const add = page.getByRole('dialog', { name: 'Add a passkey' });
    await eventually(() => focused(add.getByLabel('Name'))).toBe(true);
    await expectAccessible(page, 'passkey-add');
    // A name first: nothing is asked of the device without one.
    await add.getByRole('button', { name: 'Add passkey' }).click();
    await see(add.getByText('Must not be empty.'));
    expect(await device.credentials()).toEqual([]);
    await add.getByLabel('Name').fill('Laptop');
    await add.getByRole('button', { name: 'Add passkey' }).click();

    const shown = page.getByRole('dialog', { name: 'Your recovery codes' });
    await see(shown.getByText('Your other sessions were signed out.'));
    const codes = (await shown.getByLabel('Recovery codes').inputValue()).split('\n');
    expect(codes).toHaveLength(10);
    await eventually(() => focused(shown.getByRole('textbox', { name: 'Recovery codes' }))).toBe(true);
    await expectAccessible(page, 'passkey-recovery-codes');
    expect((await d.t.request('GET', '/v1/auth/session', { token: elsewhere })).status).toBe(401);
    await shown.getByRole('button', { name: 'I have saved them' }).click();
    await gone(shown);
    expect(await page.content()).not.toContain(codes[0]);

    // The device holds it, for this host; the account lists it.
    const held = await device.credentials();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ rpId: 'localhost', isResidentCredential: true });
    await see(section.getByRole('cell', { name: 'Laptop', exact: true }));
    await see(section.getByText('a passkey. A passkey also signs you in on its own, without your password.'));
    await see(section.getByText('10 of 10 left.'));
    await expect
      .poll(() =>
        section
          .getByRole('row', { name: /Laptop/ })
          .getByRole('cell', { name: 'Never' })
          .count(),
      )
      .toBe(1);
    await expectAccessible(page, 'account-passkeys');

    // Renamed in a dialog.
    await section.getByRole('button', { name: 'Rename Laptop' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the passkey' });
    expect(await rename.getByLabel('Name').inputValue()).toBe('Laptop');
    await rename.getByLabel('Name').fill('Work laptop');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await gone(rename);
    await see(section.getByRole('cell', { name: 'Work laptop', exact: true }));
    await see(section.getByText('The passkey is renamed “Work laptop”.'));

    // Signed out, the passkey alone signs in: no address, no password.
    await signOut(page);
    await see(page.getByRole('button', { name: 'Sign in with a passkey' }));
    await expectAccessible(page, 'sign-in-passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
    expect((await device.credentials())[0]!.signCount).toBeGreaterThan(held[0]!.signCount);

    await page.goto(`/w/${workspaceOf(page)}/account`);
    await expect
      .poll(() =>
        section
          .getByRole('row', { name: /Work laptop/ })
          .getByRole('cell', { name: 'Never' })
          .count(),
      )
      .toBe(0);
    await page.setViewportSize(PHONE);
    await see(section.getByRole('button', { name: 'Add a passkey' }));
    await expectAccessible(page, 'account-passkeys-phone');
    expect(await fitsWidth(page)).toBe(true);
    await signOut(page);
    await expectAccessible(page, 'sign-in-passkey-phone');
  });

  it(
    'the password, then the passkey as the second factor (before the code field without an app; after it with one); ' +
      'a passkey not on the device is told in words',
    async () => {
      const { page, email } = await d.ownerPage();
      const device = await virtualAuthenticator(page);
      await addPasskey(page, 'Phone');
      await signOut(page);

      // No app: the passkey is the way offered first, its button focused; a recovery code the other.
      await enterPassword(page, email);
      const usePasskey = page.getByRole('button', { name: 'Use your passkey', exact: true });
      await see(usePasskey);
      await eventually(() => focused(usePasskey)).toBe(true);
      await expect.poll(() => page.getByLabel('Authentication code').count()).toBe(0);
      await see(page.getByRole('button', { name: 'Use a recovery code instead' }));
      await expectAccessible(page, 'sign-in-second-factor-passkey');
      await usePasskey.click();
      await see(page.getByRole('heading', { level: 1, name: 'Forms' }));

      // With an app too: its code first, the passkey a click away.
      await d.t.enableAuthenticator(await sessionOf(page));
      await signOut(page);
      await page.setViewportSize(PHONE);
      await enterPassword(page, email);
      await see(page.getByLabel('Authentication code'));
      await page.getByRole('button', { name: 'Use your passkey instead' }).click();
      await eventually(() => focused(usePasskey)).toBe(true);
      await expectAccessible(page, 'sign-in-second-factor-passkey-phone');
      expect(await fitsWidth(page)).toBe(true);

      // The device lost its passkey: the browser finds none, and the step says so; the app's code still works.
      await device.clear();
      await usePasskey.click();
      await see(page.getByRole('alert').getByText('No passkey was used'));
      await page.getByRole('button', { name: 'Use your authenticator app instead' }).click();
      await see(page.getByLabel('Authentication code'));
      await page.getByRole('button', { name: 'Start over' }).click();
      // Without a passkey on the device, signing in with one alone finds none either, and says so.
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await see(page.getByRole('alert').getByText('No passkey was used'));
    },
  );

  it(
    "long after signing in, confirm it's you with the passkey (new recovery codes, then removing it); " + 'the last factor gone, the password alone signs in',
    async () => {
      const { page, email } = await d.ownerPage();
      await virtualAuthenticator(page);
      const firstCodes = await addPasskey(page, 'Laptop');
      expect(firstCodes).toHaveLength(10);
      const section = securityOf(page);

      // New recovery codes, asked who you are: the passkey is offered beside the password, and one click confirms.
      await ageSessions(d, email);
      await section.getByRole('button', { name: 'Make new recovery codes' }).click();
      await page.getByRole('dialog', { name: 'Make new recovery codes?' }).getByRole('button', { name: 'Make new codes' }).click();
      const sudo = page.getByRole('dialog', { name: "Confirm it's you" });
      await see(sudo.getByRole('button', { name: 'Use a passkey' }));
      await see(sudo.getByText('with your password or a passkey'));
      await expectAccessible(page, 'sudo-mode-dialog-passkey');
      await sudo.getByRole('button', { name: 'Use a passkey' }).click();
      await gone(sudo);
      const shown = page.getByRole('dialog', { name: 'Your new recovery codes' });
      const codes = (await shown.getByRole('textbox', { name: 'Recovery codes' }).inputValue()).split('\n');
      expect(codes).toHaveLength(10);
      expect(codes).not.toContain(firstCodes![0]);
      await shown.getByRole('button', { name: 'I have saved them' }).click();
      await gone(shown);

      // Removing it (asked first), long after confirming, on a phone: the dialog asks again, the passkey answers.
      await ageSessions(d, email);
      await page.setViewportSize(PHONE);
      await section.getByRole('button', { name: 'Remove Laptop' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove the passkey “Laptop”?' });
      await see(confirm.getByText('It is your only second factor: signing in will ask for your password only'));
      await expectAccessible(page, 'passkey-remove-confirm-phone');
      await confirm.getByRole('button', { name: 'Remove passkey' }).click();
      await see(sudo.getByRole('button', { name: 'Use a passkey' }));
      await expectAccessible(page, 'sudo-mode-dialog-passkey-phone');
      await sudo.getByRole('button', { name: 'Use a passkey' }).click();
      await gone(sudo);
      await gone(confirm);
      await see(section.getByText('The passkey “Laptop” is removed: it signs you in no more.'));
      await see(section.getByText('Signing in asks for your password only.'));
      expect(await d.t.count('passkeys where user_id in (select id from users where email = ?)', [email])).toBe(0);
      expect((await d.t.request('GET', '/v1/auth/two-factor', { token: await sessionOf(page) })).json).toMatchObject({ enabled: false, passkeys: [] });

      // Without passkeys the dialog offers none.
      await ageSessions(d, email);
      await page.setViewportSize(DESKTOP);
      await section.getByRole('button', { name: 'Add a passkey' }).click();
      const add = page.getByRole('dialog', { name: 'Add a passkey' });
      await add.getByLabel('Name').fill('Laptop again');
      await add.getByRole('button', { name: 'Add passkey' }).click();
      await see(sudo.getByLabel('Password'));
      await expect.poll(() => sudo.getByRole('button', { name: 'Use a passkey' }).count()).toBe(0);
      await sudo.getByRole('button', { name: 'Cancel' }).click();
      await gone(sudo);
      await see(add.getByText("Not done: this needs you to confirm it's you first."));
      await add.getByRole('button', { name: 'Cancel' }).click();
      await gone(add);

      await signOut(page);
      await signInInBrowser(page, email);
    },
  );

  it(
    'an owner requires two-factor of members (a factor of their own first); ' +
      'a member without one sees why instead of the workspace, and may leave or set one up',
    async () => {
      const { page: owner } = await d.ownerPage();
      const workspaceId = workspaceOf(owner);
      // A member, on the workspace's pages before the rule.
      const { page: member, email: memberEmail } = await d.ownerPage();
      await d.t.addMember(workspaceId, memberEmail, 'member');
      await member.goto(`/w/${workspaceId}/forms`);
      await see(member.getByRole('heading', { level: 1, name: 'Forms' }));

      // The owner has no factor: not offered the switch, but told where to set one up.
      await owner.goto(`/w/${workspaceId}/settings`);
      const setting = owner.getByRole('region', { name: 'Two-factor authentication' });
      await see(setting.getByText('Your own account has no second factor yet'));
      await see(setting.getByText('API keys are unaffected'));
      await expect.poll(() => setting.getByRole('checkbox').count()).toBe(0);
      await expectAccessible(owner, 'workspace-settings-two-factor-no-factor');
      await setting.getByRole('link', { name: "Set one up in your account's Security section" }).click();
      await see(securityOf(owner).getByRole('button', { name: 'Add a passkey' }));
      await virtualAuthenticator(owner);
      await addPasskey(owner, 'Owner laptop');

      await owner.goto(`/w/${workspaceId}/settings`);
      await setting.getByLabel('Require two-factor authentication of members').check();
      await setting.getByRole('button', { name: 'Save' }).click();
      await see(setting.getByText('Saved: members need a second factor to reach this workspace.'));
      expect(await d.t.sql('select require_two_factor from workspaces where id = ?', [workspaceId])).toEqual([{ require_two_factor: true }]);
      await expectAccessible(owner, 'workspace-settings-two-factor');
      await owner.setViewportSize(PHONE);
      await expectAccessible(owner, 'workspace-settings-two-factor-phone');
      await owner.getByRole('link', { name: 'Audit log' }).click();
      await see(owner.getByRole('row', { name: /changed whether members need a second factor/ }));

      // The member's next page is refused: the layout explains, in place of the workspace and its tabs.
      await member.getByRole('navigation', { name: 'Workspace pages' }).getByRole('link', { name: 'API keys' }).click();
      const explained = member.getByRole('heading', { level: 1, name: 'This workspace requires two-factor authentication' });
      await see(explained);
      await expect.poll(() => member.getByRole('navigation', { name: 'Workspace pages' }).count()).toBe(0);
      await expect.poll(() => member.getByRole('alert').count()).toBe(0);
      await expectAccessible(member, 'workspace-two-factor-required');
      // Any of its pages, opened afresh, says the same.
      await member.goto(`/w/${workspaceId}/forms`);
      await see(explained);
      await member.setViewportSize(PHONE);
      await expectAccessible(member, 'workspace-two-factor-required-phone');
      expect(await fitsWidth(member)).toBe(true);
      // The way to a factor: the account page stays open, saying why.
      await member.getByRole('link', { name: 'Set up two-factor authentication' }).click();
      await see(securityOf(member).getByRole('button', { name: 'Add a passkey' }));
      await see(member.getByText('requires two-factor authentication of its members. Set up an authenticator app or a passkey'));
      // Or leaving it, which stays open to them.
      await member.goto(`/w/${workspaceId}/settings`);
      await see(explained);
      await member.getByRole('button', { name: 'Leave workspace' }).click();
      await member
        .getByRole('dialog', { name: /^Leave/ })
        .getByRole('button', { name: 'Leave workspace' })
        .click();
      await see(member.getByRole('heading', { level: 1, name: 'Forms' }));
      expect(workspaceOf(member)).not.toBe(workspaceId);
      expect(await d.t.count('memberships where workspace_id = ? and user_id in (select id from users where email = ?)', [workspaceId, memberEmail])).toBe(0);

      // Another member sets a passkey up from the explanation: the workspace opens.
      const { page: other, email: otherEmail } = await d.ownerPage();
      await d.t.addMember(workspaceId, otherEmail, 'member');
      await other.goto(`/w/${workspaceId}/members`);
      await see(other.getByRole('heading', { level: 1, name: 'This workspace requires two-factor authentication' }));
      await virtualAuthenticator(other);
      await other.getByRole('link', { name: 'Set up two-factor authentication' }).click();
      await addPasskey(other, 'Phone');
      await other.getByRole('navigation', { name: 'Workspace pages' }).getByRole('link', { name: 'Forms' }).click();
      await see(other.getByRole('heading', { level: 1, name: 'Forms' }));
      expect(workspaceOf(other)).toBe(workspaceId);
    },
  );
});

describeInBrowser('passkeys at an IP address', () => {
  const d = useDashboard();

  it('are not offered, and the account page says why; an account with one completes its sign-in another way, and removes it with its password', async () => {
    const { page, email } = await d.ownerPage();
    expect(new URL(page.url()).hostname).toBe('127.0.0.1');
    // A passkey made elsewhere (a software authenticator, through the API).
    const { recoveryCodes } = await d.t.addPasskey(await sessionOf(page));

    // Signing in: no passkey button; the second step says why the passkey is not asked for, and takes a recovery code.
    await signOut(page);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
    await enterPassword(page, email);
    await see(page.getByText('Your passkey cannot be used on this page: passkeys need the dashboard at a domain name'));
    await eventually(() => focused(page.getByLabel('Recovery code'))).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: /passkey/ }).count()).toBe(0);
    await expectAccessible(page, 'sign-in-second-factor-passkey-at-ip');
    await page.getByLabel('Recovery code').fill(recoveryCodes![0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));

    // The account page lists it, offers no new one, and says where passkeys work.
    await page.goto(`/w/${workspaceOf(page)}/account`);
    const section = securityOf(page);
    await see(section.getByText('Passkeys need the dashboard at a domain name'));
    await see(section.getByRole('link', { name: new URL(d.url.replace('127.0.0.1', 'localhost')).origin }));
    await see(section.getByRole('cell', { name: 'Test passkey', exact: true }));
    await expect.poll(() => section.getByRole('button', { name: 'Add a passkey' }).count()).toBe(0);
    await expectAccessible(page, 'account-passkeys-at-ip');
    await page.setViewportSize(PHONE);
    await expectAccessible(page, 'account-passkeys-at-ip-phone');
    expect(await fitsWidth(page)).toBe(true);

    // Removing it, long after signing in: the dialog asks for the password (no passkey offered here).
    await ageSessions(d, email);
    await section.getByRole('button', { name: 'Remove Test passkey' }).click();
    await page.getByRole('dialog', { name: 'Remove the passkey “Test passkey”?' }).getByRole('button', { name: 'Remove passkey' }).click();
    const sudo = page.getByRole('dialog', { name: "Confirm it's you" });
    await see(sudo.getByLabel('Password'));
    await expect.poll(() => sudo.getByRole('button', { name: 'Use a passkey' }).count()).toBe(0);
    await sudo.getByLabel('Password').fill(PASSWORD);
    await sudo.getByRole('button', { name: 'Confirm' }).click();
    await see(section.getByText('The passkey “Test passkey” is removed: it signs you in no more.'));
    await see(section.getByText('Signing in asks for your password only.'));
  });
});
