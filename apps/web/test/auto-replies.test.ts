/**
 * Issue 41 in a real Chromium: a form's auto-reply set on its page, the emails a submission sends
 * previewed as the server builds them, and a submission answered.
 */
import { emailsSentTo, submit, until } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, PHONE, see, useDashboard } from './fixtures.ts';

const SITE = 'https://example.com';

describeInBrowser('auto-replies', () => {
  const d = useDashboard();

  it('an owner turns the auto-reply on, sees the emails previewed, and a submission is answered', async () => {
    const { page } = await d.ownerPage({ viewport: PHONE });
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await page.getByRole('link', { name: 'Create form' }).click();
    await page.getByLabel('Form name').fill('Enquiries');
    await page.getByLabel('Allowed origins', { exact: true }).fill(SITE);
    await page.getByRole('button', { name: 'Create form' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Enquiries' }));
    const formId = /forms\/(form_[0-9A-Za-z]+)/.exec(page.url())![1]!;

    const previews = page.getByRole('region', { name: 'Emails a submission sends' });
    await see(previews.getByText('None: the form has no auto-reply.'));
    const section = page.getByRole('region', { name: 'Auto-reply' });
    await section.getByLabel('Answer each submission by email').check();
    await section.getByLabel('Subject').fill('Thanks for writing to Enquiries');
    await section.getByLabel('Message').fill('Hello,\n\nYou wrote:\n{message}');
    await section.getByRole('button', { name: 'Save auto-reply' }).click();
    await see(section.getByText('Auto-reply saved.'));
    // The preview is the server's own rendering of the reply to a sample submission.
    await see(previews.getByText('Subject: Thanks for writing to Enquiries'));
    await see(previews.getByText(/List-Unsubscribe: <.*\/v1\/auto-reply-stops\/lfu_/));
    await see(previews.getByText(/A few lines of text,\s+as a person writes them\./));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'form-auto-reply-phone');

    // A placeholder that names no field is refused beside the message.
    await section.getByLabel('Message').fill('Hello {nobody}');
    await section.getByRole('button', { name: 'Save auto-reply' }).click();
    await see(section.getByText('{nobody} names no field of the form.'));

    const sent = await submit(d.t, formId, { email: 'visitor@example.org', message: 'Do you ship to Iceland?' }, { origin: SITE });
    expect(sent.status).toBe(201);
    const [reply] = await until('the auto-reply', () => {
      const found = emailsSentTo(d.t, 'visitor@example.org', 'auto_reply');
      return found.length > 0 ? found : undefined;
    });
    expect(reply!.subject).toBe('Thanks for writing to Enquiries');
    expect(reply!.text).toContain('You wrote:\nDo you ship to Iceland?');
  });
});
