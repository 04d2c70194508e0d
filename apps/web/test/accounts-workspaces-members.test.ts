/**
 * Accounts, workspaces, members and the audit log in a real Chromium: errors beside their
 * fields, rate limits with when to retry, deep links that survive a reload, the switcher.
 */
import { linkTokenSentTo } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import {
  DESKTOP,
  describeInBrowser,
  eventually,
  expectAccessible,
  gone,
  newEmail,
  PASSWORD,
  PHONE,
  screenshot,
  see,
  signInInBrowser,
  signUpInBrowser,
  useDashboard,
  workspaceOf,
} from './fixtures.ts';

describeInBrowser('accounts, workspaces, members and the audit log', () => {
  const d = useDashboard();

  it('sign up shows each error beside its field; sign out; signed-out deep links lead to sign-in; sign in', async () => {
    const taken = newEmail('taken');
    await d.t.signup(taken);
    const page = await d.newPage(PHONE);
    await page.goto('/sign-up');
    await expectAccessible(page, 'sign-up');
    await page.getByLabel('Email').fill(taken);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByText('Must be at least 10 characters.'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await see(page.getByText('An account with that email address already exists.'));
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    const email = newEmail();
    await signUpInBrowser(page, email);
    // A newcomer starts on Forms, under a banner that asks them to confirm their address.
    const firstUrl = page.url();
    expect(firstUrl).toMatch(/\/w\/ws_[0-9A-Za-z]+\/forms$/);
    await page.reload();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
    await see(page.getByRole('note', { name: 'Confirm your email address' }).getByText(`Open the link emailed to ${email} when you signed up`));
    await expectAccessible(page, 'forms-unconfirmed');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    await page.goto(firstUrl);
    await see(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in-phone');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await see(page.getByRole('alert').getByText('The email or password is incorrect.'));
    await signInInBrowser(page, email);
  });

  it('a new workspace from the switcher; its name is on every page; switching back', async () => {
    const { page } = await d.ownerPage({ name: 'Grace' });
    const personal = workspaceOf(page);
    await page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'New workspace' });
    await dialog.getByLabel('Name').fill('Acme');
    await dialog.getByRole('button', { name: 'Create workspace' }).click();
    await gone(dialog);
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
    const switcher = page.getByLabel('Workspace', { exact: true });
    await expect.poll(() => switcher.locator('option:checked').textContent()).toBe('Acme');
    expect(workspaceOf(page)).not.toBe(personal);
    await page.getByRole('link', { name: 'Members' }).click();
    expect(await switcher.locator('option:checked').textContent()).toBe('Acme');
    await switcher.selectOption({ label: "Grace's workspace" });
    await expect.poll(() => workspaceOf(page)).toBe(personal);
  });

  it('members are invited by email, join by accepting, and are removed; the last owner is explained; the audit log says who did what', async () => {
    const other = newEmail('colleague');
    const colleague = await d.t.signup(other);
    const { page, email } = await d.ownerPage();
    await page.getByRole('link', { name: 'Members' }).click();
    await see(page.getByRole('cell', { name: email, exact: true }));

    // Any address gets the same answer: whether it has an account is not told.
    for (const address of ['nobody@example.com', other]) {
      await page.getByLabel('Email').fill(address);
      await page.getByLabel('Role', { exact: true }).selectOption('member');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await see(page.getByText(`Invitation sent to ${address}. They join when they accept it.`));
    }
    // Inviting as an owner asks first, saying what an owner may do; Cancel sends nothing.
    await page.getByLabel('Email').fill('boss@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('owner');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const asked = page.getByRole('dialog', { name: 'Invite boss@example.com as an owner?' });
    await see(asked.getByText('can delete the workspace with everything in it'));
    await expectAccessible(page, 'invite-owner-confirm');
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await gone(asked);
    expect(await d.t.count("invitations where email = 'boss@example.com'")).toBe(0);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('dialog', { name: 'Invite boss@example.com as an owner?' }).getByRole('button', { name: 'Invite as owner' }).click();
    await see(page.getByText('Invitation sent to boss@example.com. They join when they accept it.'));
    const pending = page.getByRole('table', { name: 'Invitations waiting for an answer' });
    await see(pending.getByRole('cell', { name: 'nobody@example.com', exact: true }));
    await page.getByRole('button', { name: 'Resend the invitation to nobody@example.com' }).click();
    await see(page.getByText('Sent nobody@example.com a new link.'));
    await page.getByRole('button', { name: 'Cancel the invitation to nobody@example.com' }).click();
    await gone(pending.getByRole('cell', { name: 'nobody@example.com', exact: true }));
    const token = await linkTokenSentTo(d.t, other, 'invitation');
    expect((await d.t.request('POST', `/v1/invitations/${token}/accept`, { token: colleague.token })).status).toBe(200);
    await page.reload();
    await see(page.getByRole('table', { name: 'Members of this workspace' }).getByRole('cell', { name: other, exact: true }));
    await expectAccessible(page, 'members');
    await screenshot(page, 'members-desktop');

    // Roles are changed in the table; the last owner stays one, and the page says why.
    await page.getByLabel(`Role of ${email}`).selectOption('member');
    await see(page.getByRole('alert').getByText('A workspace keeps at least one owner'));
    expect(await page.getByLabel(`Role of ${email}`).inputValue()).toBe('owner');
    // Making someone an owner asks first; not now leaves them a member.
    await page.getByLabel(`Role of ${other}`).selectOption('owner');
    const promote = page.getByRole('dialog', { name: `Make ${other} an owner?` });
    await see(promote.getByText('can delete the workspace'));
    await expectAccessible(page, 'make-owner');
    await promote.getByRole('button', { name: 'Cancel' }).click();
    await gone(promote);
    expect(await page.getByLabel(`Role of ${other}`).inputValue()).toBe('member');
    await page.getByLabel(`Role of ${other}`).selectOption('owner');
    await page
      .getByRole('dialog', { name: `Make ${other} an owner?` })
      .getByRole('button', { name: 'Make owner' })
      .click();
    await see(page.getByText(`${other} is now an owner.`));
    await page.getByLabel(`Role of ${other}`).selectOption('member');
    await see(page.getByText(`${other} is now a member.`));

    // The workspace's name, for owners, on its settings page.
    await page.getByRole('link', { name: 'Settings' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Workspace settings' }));
    await page.getByLabel('Name', { exact: true }).fill('Acme Forms');
    await page.getByRole('button', { name: 'Rename' }).click();
    await see(page.getByText('Workspace renamed.'));
    // The switcher reads the new name.
    await eventually(() => page.getByLabel('Workspace', { exact: true }).locator('option:checked').textContent()).toBe('Acme Forms');

    // The last owner cannot leave either; the dialog says what to do first.
    await page.getByRole('button', { name: 'Leave workspace' }).click();
    const leaving = page.getByRole('dialog', { name: 'Leave “Acme Forms”?' });
    await leaving.getByRole('button', { name: 'Leave workspace' }).click();
    await see(leaving.getByText('A workspace keeps at least one owner'));
    await leaving.getByRole('button', { name: 'Cancel' }).click();
    await expectAccessible(page, 'workspace-settings');

    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('button', { name: `Remove ${email}` }).click();
    const lastOwner = page.getByRole('dialog', { name: `Remove ${email}?` });
    await lastOwner.getByRole('button', { name: 'Remove member' }).click();
    await see(lastOwner.getByText('Make someone else an owner first'));
    await lastOwner.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: `Remove ${other}` }).click();
    await page
      .getByRole('dialog', { name: `Remove ${other}?` })
      .getByRole('button', { name: 'Remove member' })
      .click();
    await gone(page.getByRole('cell', { name: other, exact: true }));

    await page.getByRole('link', { name: 'Audit log' }).click();
    await see(page.getByRole('row', { name: /added a member/ }));
    // The person removed is named by their address, though no longer a member.
    await see(page.getByRole('row', { name: new RegExp(`removed a member.*${other.replace(/[.]/g, '\\.')} \\(no longer a member\\)`) }));
    await see(page.getByRole('row', { name: /changed a member's role \(from member to owner\)/ }));
    await see(page.getByRole('row', { name: /renamed the workspace/ }));
    await see(page.getByRole('row', { name: new RegExp(`${email.replace(/[.]/g, '\\.')}.*created the workspace`) }));
    await expectAccessible(page, 'audit-log');
  });
});

describeInBrowser('rate limits', () => {
  const d = useDashboard({ LFK_RATE_LIMIT_LOGIN: '2/1h' });

  it('a refused sign-in says when to try again', async () => {
    const page = await d.newPage(DESKTOP);
    await page.goto('/sign-in');
    for (let attempt = 0; attempt < 3; attempt++) {
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await see(page.getByRole('alert'));
    }
    await see(page.getByRole('alert').getByText(/You can try again in \d+ minutes?\./));
  });
});

describeInBrowser('where signing in goes next', () => {
  const d = useDashboard();

  it('a next that is not a path of this app is dropped, whatever the router kept of it; a path of the app is followed', async () => {
    const email = newEmail('next');
    await d.t.signup(email);
    const page = await d.newPage();
    const origin = new URL(d.url).origin;
    for (const next of ['//evil.example/', '/\\evil.example/', 'https://evil.example/', 'javascript:alert(1)', '/\t/evil.example/', ' /w']) {
      await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
      expect(new URL(page.url()).origin, next).toBe(origin);
      await page.context().clearCookies();
    }
    await page.goto(`/sign-in?next=${encodeURIComponent('/device?code=BCDF-GHJK')}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/device');
  });
});
