/**
 * In a real Chromium: a newcomer invites a colleague who has no account, and the colleague signs up
 * through the emailed link and lands in the workspace; a forgotten password is reset from the
 * sign-in page; an owner deletes a workspace by typing its name; a person deletes their account.
 */
import { linkTokenSentTo } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, newEmail, PASSWORD, see, useDashboard, workspaceOf } from './fixtures.ts';

describeInBrowser('invitations, password reset, deleting', () => {
  const d = useDashboard();

  it('a newcomer signs up and invites a colleague without an account, who signs up through the link and lands in the workspace', async () => {
    const { page, email } = await d.ownerPage({ name: 'Ada' });
    const workspaceId = workspaceOf(page);
    await page.getByRole('link', { name: 'Members' }).click();
    const colleague = newEmail('colleague');
    await page.getByLabel('Email').fill(colleague);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await see(page.getByText(`Invitation sent to ${colleague}. They join when they accept it.`));

    // The colleague opens the emailed link in a browser of their own: no account yet.
    const token = await linkTokenSentTo(d.t, colleague, 'invitation');
    const theirs = await d.newPage();
    await theirs.goto(`/invitations/${token}`);
    await see(theirs.getByRole('heading', { level: 1, name: "Join “Ada's workspace”" }));
    await see(theirs.getByText(`Ada invited ${colleague} to the workspace “Ada's workspace” as a member.`));
    await expectAccessible(theirs, 'invitation');
    await theirs.getByRole('link', { name: 'Create an account' }).click();
    // The address is the invitation's, filled in.
    expect(await theirs.getByLabel('Email').inputValue()).toBe(colleague);
    await theirs.getByLabel('Password').fill(PASSWORD);
    await theirs.getByRole('button', { name: 'Sign up' }).click();
    await theirs.getByRole('button', { name: 'Join workspace' }).click();
    await see(theirs.getByRole('heading', { level: 1, name: 'Forms' }));
    expect(workspaceOf(theirs)).toBe(workspaceId);
    await expect.poll(() => theirs.getByLabel('Workspace', { exact: true }).locator('option:checked').textContent()).toBe("Ada's workspace (member)");

    // The owner sees them among the members; the invitation is gone.
    await page.reload();
    await see(page.getByRole('table', { name: 'Members of this workspace' }).getByRole('cell', { name: colleague, exact: true }));
    await see(page.getByText('No invitation is waiting for an answer.'));
    expect(email).not.toBe(colleague);
  });

  it('an invitation opened while signed in as someone else says so, and joins nobody', async () => {
    const { page } = await d.ownerPage();
    const invitee = newEmail('invitee');
    const owner = await d.t.signup();
    await d.t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: invitee } });
    const token = await linkTokenSentTo(d.t, invitee, 'invitation');
    await page.goto(`/invitations/${token}`);
    await see(page.getByRole('alert').getByText(`This invitation is for ${invitee}`));
    expect(await page.getByRole('button', { name: 'Join workspace' }).count()).toBe(0);
    await page.goto('/invitations/lfi_nope');
    await see(page.getByRole('heading', { level: 1, name: 'This invitation does not work' }));
  });

  it('Forgot password? on the sign-in page: a link is emailed, its page sets the new password, and it signs in', async () => {
    const email = newEmail('forgetful');
    await d.t.signup(email);
    const page = await d.newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Reset your password' }));
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await see(page.getByRole('status').getByText(/If an account uses this address/));
    await expectAccessible(page, 'forgot-password');

    const token = await linkTokenSentTo(d.t, email, 'password_reset');
    await page.goto(`/v1/auth/password-resets/${token}`);
    await see(page.getByRole('heading', { level: 1, name: 'Choose a new password' }));
    await page.getByLabel(/New password/).fill('a fresh long password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Password changed' }));
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a fresh long password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
  });

  it('an owner deletes a workspace by typing its name; with none left, the welcome page offers a new one', async () => {
    const { page } = await d.ownerPage({ name: 'Bea' });
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Delete workspace' }).click();
    const dialog = page.getByRole('dialog', { name: "Delete “Bea's workspace”?" });
    const confirmButton = dialog.getByRole('button', { name: 'Delete workspace' });
    await dialog.getByLabel(/Type the workspace's name/).fill("Bea's");
    expect(await confirmButton.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type the workspace's name/).fill("Bea's workspace");
    await expectAccessible(page, 'delete-workspace');
    await confirmButton.click();
    await see(page.getByRole('heading', { level: 1, name: 'You are not in any workspace' }));
    await page.getByLabel('Name').fill('Fresh start');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
  });

  it('a person confirms their address and deletes their account from the account page', async () => {
    const { page, email } = await d.ownerPage({ confirmed: false });
    await page.getByRole('link', { name: `Your account: ${email}` }).click();
    await see(page.getByText('not confirmed'));
    const token = await linkTokenSentTo(d.t, email, 'account_verification');
    expect((await d.t.request('POST', `/v1/email-verifications/${token}`)).status).toBe(200);
    await page.reload();
    await see(page.getByText('confirmed', { exact: true }));

    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByLabel('Your password, to confirm').fill('not my password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await see(page.getByText('Is not your password.'));
    await page.getByLabel('Your password, to confirm').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    // It ends on a page that says so, not on the sign-in form.
    await see(page.getByRole('heading', { level: 1, name: 'Your account is deleted' }));
    await see(page.getByText('Your sessions have ended and you have left every workspace.'));
    await expectAccessible(page, 'account-deleted');
    expect((await d.t.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } })).status).toBe(401);
    await page.getByRole('link', { name: 'Create a new account' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Create your account' }));
  });
});
