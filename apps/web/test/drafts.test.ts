/**
 * Issue 53's drafts from the owner's side, in a real Chromium: turned on in the form's settings,
 * counted on the forms list, read on the form's Drafts page apart from its submissions, and deleted
 * there. (The visitor's side, the kit keeping and restoring a draft, is kit.test.ts's.)
 */
import { createContactForm, ORIGIN } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, gone, see, sessionOf, useDashboard, workspaceOf } from './fixtures.ts';

describeInBrowser('drafts', () => {
  const d = useDashboard();

  it('turned on in the settings, counted on the forms list, read and deleted on the Drafts page', async () => {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const token = await sessionOf(page);
    const form = await createContactForm(d.t, { token, workspaceId });
    await page.goto(`/w/${workspaceId}/forms/${form.id}`);
    await see(page.getByRole('heading', { level: 2, name: 'Spam, closing, retention and drafts' }));
    // No drafts yet, and no way to them.
    expect(await page.getByRole('link', { name: 'Drafts', exact: true }).count()).toBe(0);
    await page.getByLabel('Keep drafts').check();
    await page.getByLabel('Keep a draft for (days)').fill('40');
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    await see(page.getByText('Must be at most 30.'));
    await page.getByLabel('Keep a draft for (days)').fill('14');
    await page.getByLabel('Offer a link by email to finish later').check();
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    await see(page.getByText('Spam and closing settings saved.'));
    expect((await d.t.request('GET', `/v1/forms/${form.id}`, { token })).json.drafts).toEqual({ enabled: true, ttl_days: 14, email_link: true });

    // Two visitors begin on the form's page.
    for (const name of ['Ada Lovelace', 'Grace Hopper']) {
      const started = await d.t.request('POST', `/v1/forms/${form.id}/drafts`, {
        headers: { origin: ORIGIN },
        body: { data: { name, message: `From ${name}` } },
      });
      expect(started.status, started.body).toBe(201);
    }
    await page.goto(`/w/${workspaceId}/forms`);
    const listed = page.getByRole('row').filter({ hasText: 'Contact' });
    await listed.getByRole('link', { name: '2 drafts of Contact' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Drafts of Contact' }));
    await see(page.getByText('Each is deleted 14 days after its last save, or when it is sent.'));
    await see(page.getByRole('cell', { name: 'Ada Lovelace', exact: true }));
    await see(page.getByRole('cell', { name: 'From Grace Hopper' }));
    await expectAccessible(page, 'drafts');

    const ada = page.getByRole('row').filter({ hasText: 'Ada Lovelace' });
    await ada.getByRole('button', { name: /^Delete the draft saved/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this draft?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await see(page.getByText('Deleted the draft.'));
    await gone(page.getByRole('cell', { name: 'Ada Lovelace', exact: true }));
    await see(page.getByRole('cell', { name: 'Grace Hopper', exact: true }));
    expect(await d.t.count('drafts where form_id = ?', [form.id])).toBe(1);
    // The form's page leads here now.
    await page.goto(`/w/${workspaceId}/forms/${form.id}`);
    await see(page.getByRole('link', { name: 'Drafts', exact: true }));
  });
});
