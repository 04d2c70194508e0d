/**
 * Forms in a real Chromium: built with the field builder (errors beside their fields), the
 * embed snippet, the notify email's verification and its resend (the 429 explained), claiming
 * an unclaimed form, and a browser submission read in full on the submissions page.
 */
import { submit, until } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { type Dashboard, describeInBrowser, expectAccessible, PHONE, screenshot, see, useDashboard } from './fixtures.ts';

const SITE = 'https://example.com';

/** The newest verification link mailed to `to` (the server prints mail to its log without SMTP). */
/** The tokens of the verification emails sent to `to`, oldest first, as the server logged them. */
function verificationTokens(d: Dashboard, to: string): string[] {
  const tokens: string[] = [];
  for (const line of d.t.logs) {
    const email = JSON.parse(line).email;
    const token = email?.to === to && email.kind === 'verification' ? /lfv_[0-9A-Za-z]+/.exec(email.text)?.[0] : undefined;
    if (token) tokens.push(token);
  }
  return tokens;
}

describeInBrowser('forms and submissions', () => {
  const d = useDashboard();

  it('create a form with the field builder, verify its notify email (resend explained), and read a browser submission', async () => {
    const { page } = await d.ownerPage();
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await see(page.getByText('No forms in this workspace yet.'));
    await expectAccessible(page, 'forms-empty');

    await page.getByRole('link', { name: 'Create form' }).click();
    await page.getByLabel('Form name').fill('Contact');
    // A form made here keeps an input its fields do not name rather than refuse the visitor.
    expect(await page.getByLabel('Fields the form does not name').inputValue()).toBe('keep');
    await page.getByRole('button', { name: 'Add field' }).click();
    const third = page.getByRole('group', { name: 'Field 3' });
    await third.getByLabel('Field name').fill('topic');
    await third.getByLabel('Type').selectOption('select');
    await third.getByLabel('Label').fill('Topic');
    await third.getByLabel('Options').fill('sales\nsupport');
    await page.getByLabel('Allowed origins', { exact: true }).fill('example.com');
    await page.getByLabel('Notification emails').fill('team@example.com');
    await page.getByRole('button', { name: 'Create form' }).click();
    // The API's own schema, run before sending, puts the error under the field it is about.
    await see(page.getByText('Must be an origin such as https://example.com.'));
    expect(await page.getByLabel('Allowed origins', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'new-form-with-error');
    await screenshot(page, 'new-form-desktop');

    await page.getByLabel('Allowed origins', { exact: true }).fill(SITE);
    await page.getByRole('button', { name: 'Create form' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Contact' }));
    const formUrl = page.url();
    const formId = /forms\/(form_[0-9A-Za-z]+)/.exec(formUrl)![1]!;

    // The embed snippet: a plain HTML form posting to this server, one input per field.
    const snippet = page.getByRole('figure').filter({ hasText: 'HTML form' });
    await see(snippet.getByText(`action="${d.url}/v1/forms/${formId}/submissions"`));
    await see(snippet.getByText('<option>support</option>'));
    // The topic is optional: its select starts on an empty choice, so leaving it alone sends nothing.
    await see(snippet.getByText('<option value=""></option>'));

    // The email sent on create counts: an immediate resend is refused, and the page says why and when.
    await see(page.getByText('Not verified'));
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await see(page.getByRole('alert').getByText(/One verification email per form goes out at a time.*You can resend in \d+ seconds?\./));
    await expectAccessible(page, 'form-settings');
    await screenshot(page, 'form-settings-desktop');

    // Once the interval has passed (moved back here rather than waited for), a resend goes out.
    await d.t.sql(`update forms set verification_sent_at = now() - interval '1 hour' where id = ?`, [formId]);
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await see(page.getByText('Sent a new link to t***@example.com.'));
    // The second email (the first went out on create) replaces the first link, and leaves the outbox after the answer: wait for it.
    const token = await until('the resent verification email', () => verificationTokens(d, 'team@example.com')[1]);
    await page.goto(`/v1/email-verifications/${token}`);
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByText('Address verified', { exact: false }));
    await page.goto(formUrl);
    await see(page.getByText('Submissions are emailed to team@example.com.'));
    // A new address waits for its own verification; the verified one keeps the submissions meanwhile.
    await page.getByLabel('Notification emails').fill('new-team@example.com\nsales@example.com');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await see(page.getByText('Until one is verified, submissions are still emailed to team@example.com.'));
    await see(page.getByText('sales@example.com gets no submissions until someone there opens the link'));
    await see(page.getByRole('button', { name: 'Resend verification emails' }));

    // No submissions yet: the page says what to do next (the snippet).
    await page.getByRole('link', { name: 'Submissions' }).first().click();
    await see(page.getByText('No submissions yet.'));
    await see(page.getByRole('heading', { name: 'Put the form on your site' }));
    await expectAccessible(page, 'submissions-empty');

    const sent = await submit(
      d.t,
      formId,
      { email: 'ada@example.org', topic: 'sales', message: 'Hello,\nI would like a quote.', company: 'Analytical Engines' },
      { origin: SITE },
    );
    expect(sent.status).toBe(201);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'ada@example.org' });
    await see(row.getByRole('cell', { name: 'Browser' }));
    await row.getByRole('button', { name: 'Open' }).click();
    const detail = page.locator('tr.submission-detail');
    await see(detail.getByText('I would like a quote.'));
    await see(detail.getByText('Analytical Engines'));
    await see(detail.getByText(sent.json.id));
    await expectAccessible(page, 'submissions');
  });

  it('settings are saved, and only what changed is sent', async () => {
    const { page } = await d.ownerPage({ viewport: PHONE });
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await page.getByRole('link', { name: 'Create form' }).click();
    await page.getByLabel('Form name').fill('Newsletter');
    await page.getByLabel('Only your servers, with an API key').check();
    await page.getByRole('button', { name: 'Create form' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Newsletter' }));
    // api_key mode: the server-side call, with a placeholder instead of a key.
    await see(page.getByRole('heading', { name: 'Send submissions from your server' }));
    await see(page.getByText('Authorization: Bearer $LFK_API_KEY'));
    expect(await page.content()).not.toMatch(/lfk_[0-9A-Za-z]{36}/);

    await page.getByLabel('Form name').fill('Newsletter sign-up');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await see(page.getByText('Changes saved.'));
    await see(page.getByRole('heading', { level: 1, name: 'Newsletter sign-up' }));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'form-settings-phone');
    await screenshot(page, 'form-settings-phone');
  });

  it('the origins a form refused are listed on its page, and one is allowed in a click and a save', async () => {
    const { page } = await d.ownerPage();
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await page.getByRole('link', { name: 'Create form' }).click();
    await page.getByLabel('Form name').fill('Refusing');
    await page.getByLabel('Allowed origins', { exact: true }).fill(SITE);
    await page.getByRole('button', { name: 'Create form' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Refusing' }));
    const formId = /forms\/(form_[0-9A-Za-z]+)/.exec(page.url())![1]!;

    // The site's www page posts the form: refused, and noted.
    const refused = await submit(d.t, formId, { email: 'ada@example.org' }, { origin: 'https://www.example.com' });
    expect(refused.status).toBe(403);
    await d.t.server.services.background.settle();
    await page.reload();
    const note = page.getByRole('note').filter({ hasText: 'Refused lately' });
    await see(note.getByText('https://www.example.com'));
    await note.getByRole('button', { name: 'Add to the list' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await see(page.getByText('Changes saved.'));
    const allowed = await submit(d.t, formId, { email: 'ada@example.org', message: 'Hello' }, { origin: 'https://www.example.com' });
    expect(allowed.status, allowed.body).toBe(201);
    await expectAccessible(page, 'form-refused-origins');
  });

  it('an unclaimed form is claimed with its claim token', async () => {
    const made = await fetch(`${d.url}/v1/forms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made anonymously', schema: [{ name: 'email', type: 'email' }], notify_email: 'anon@example.com' }),
    });
    expect(made.status).toBe(201);
    const { id, claim_token } = (await made.json()) as { id: string; claim_token: string };

    const { page } = await d.ownerPage();
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await page.getByRole('link', { name: 'Claim a form' }).click();
    await page.getByLabel('Form id').fill(id);
    await page.getByLabel('Claim token').fill('lfc_wrong');
    await page.getByRole('button', { name: 'Claim form' }).click();
    await see(page.getByRole('alert').getByText('Check the form id and the claim token'));
    await expectAccessible(page, 'claim-form');
    await page.getByLabel('Claim token').fill(claim_token);
    await page.getByRole('button', { name: 'Claim form' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Made anonymously' }));
  });
});
