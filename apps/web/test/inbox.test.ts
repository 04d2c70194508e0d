/**
 * The inbox in a real Chromium: counts on the forms list, a table of submissions with search, a
 * spam tab (mark spam, not spam), select-and-delete, Export; the form's spam and closing settings
 * (the embed snippet follows them) and deleting the form.
 */
import { createContactForm, ORIGIN, submit } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { describeInBrowser, eventually, expectAccessible, focused, gone, PHONE, screenshot, see, sessionOf, useDashboard, workspaceOf } from './fixtures.ts';

describeInBrowser('the inbox', () => {
  const d = useDashboard();

  it('search, spam, select-and-delete and export on the submissions page; counts on the forms list', async () => {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const form = await createContactForm(d.t, { token: await sessionOf(page), workspaceId }, { spam: { honeypot: '_gotcha' } });
    const people = [
      ['Ada Lovelace', 'ada@example.com', 'A quote for 40 seats, please.'],
      ['Grace Hopper', 'grace@example.com', 'Do you support COBOL?'],
      ['Linus', 'linus@example.com', '=HYPERLINK("http://evil.example")'],
    ];
    for (const [name, email, message] of people) {
      expect((await submit(d.t, form.id, { name, email, message }, { origin: ORIGIN })).status).toBe(201);
    }
    expect((await submit(d.t, form.id, { name: 'Cheap pills', email: 'bot@spam.example', message: 'buy now', _gotcha: 'x' }, { origin: ORIGIN })).status).toBe(
      201,
    );

    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    const listed = page.getByRole('row').filter({ hasText: 'Contact' });
    await see(listed.getByRole('link', { name: '3 submissions to Contact' }));
    await listed.getByRole('link', { name: '3 submissions to Contact' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Submissions to Contact' }));
    const rows = page.locator('table.submissions-table tbody tr');
    await see(page.getByRole('cell', { name: 'Ada Lovelace' }));
    expect(await rows.count()).toBe(3);
    await expectAccessible(page, 'inbox');
    await screenshot(page, 'inbox-desktop');

    // Search looks in every value, whatever its case.
    await page.getByRole('searchbox', { name: 'Search submissions' }).fill('cobol');
    await page.getByRole('button', { name: 'Search' }).click();
    await see(page.getByRole('cell', { name: 'Grace Hopper' }));
    await gone(page.getByRole('cell', { name: 'Ada Lovelace' }));
    await page.getByRole('searchbox', { name: 'Search submissions' }).fill('nothing like this');
    await page.getByRole('button', { name: 'Search' }).click();
    await see(page.getByText('No submission matches.'));
    await page.getByRole('searchbox', { name: 'Search submissions' }).fill('');
    await page.getByRole('button', { name: 'Search' }).click();

    // The spam tab: the bot is there, with why; "Not spam" brings it to the inbox.
    const tabs = page.getByRole('group', { name: 'Which submissions' });
    await tabs.getByRole('button', { name: 'Spam' }).click();
    const bot = page.getByRole('row').filter({ hasText: 'Cheap pills' });
    await see(bot.getByRole('cell', { name: 'Filled in the hidden field' }));
    await bot.getByRole('button', { name: 'Not spam' }).click();
    await see(page.getByText('Moved to the inbox: its email and webhooks are sent now.'));
    await see(page.getByText('No spam.'));
    await tabs.getByRole('button', { name: 'Inbox' }).click();
    await see(page.getByRole('cell', { name: 'Cheap pills' }));
    // …and back to spam.
    await page.getByRole('row').filter({ hasText: 'Cheap pills' }).getByRole('button', { name: 'Mark spam' }).click();
    await see(page.getByText('Moved to spam.'));
    await gone(page.getByRole('cell', { name: 'Cheap pills' }));

    // Export: the file the browser downloads, as the page shows it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    expect(download.suggestedFilename()).toBe(`${form.id}-submissions.csv`);
    expect(csv.startsWith('\uFEFFid,created_at,via,name,email,message\r\n')).toBe(true);
    // The formula is shown as text: prefixed with ', and quoted for its quotes.
    expect(csv).toContain(`,"'=HYPERLINK(""http://evil.example"")"\r\n`);
    expect(csv).not.toContain('Cheap pills');

    // A person streaming as many exports as they may (LFK_EXPORTS_PER_PERSON, 2) is told so, in words.
    const person = (await d.t.request('GET', '/v1/auth/session', { token: await sessionOf(page) })).json.user.id as string;
    const streaming = [d.t.server.services.exports.take(person), d.t.server.services.exports.take(person)];
    await page.getByRole('button', { name: 'Export JSON Lines' }).click();
    const refused = page.getByRole('alert');
    await see(refused.getByText('You are already exporting 2 files at once; wait for one to finish, then try again.'));
    await see(refused.getByText('Exports still downloading count too, in other tabs or from the command line. Try again in 10 seconds.'));
    for (const giveBack of streaming) giveBack();
    const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON Lines' }).click()]);
    expect(jsonl.suggestedFilename()).toBe(`${form.id}-submissions.jsonl`);
    await gone(page.getByRole('alert'));

    // Select two and delete them.
    await page
      .getByRole('checkbox', { name: /Select the submission/ })
      .nth(0)
      .check();
    await page
      .getByRole('checkbox', { name: /Select the submission/ })
      .nth(1)
      .check();
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 2 submissions?' });
    await expectAccessible(page, 'inbox-delete');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await see(page.getByText('Deleted 2 submissions.'));
    // Nothing is selected now, so the button that opened it is disabled: the focus waits on the page's heading, not its body.
    await eventually(() => focused(page.getByRole('heading', { level: 1 }))).toBe(true);
    await see(page.getByRole('cell', { name: 'Ada Lovelace' }));
    // The table is read again after the deletion: its rows follow when that answer comes.
    await expect.poll(() => rows.count()).toBe(1);
    expect(await d.t.count("submissions where form_id = ? and status = 'ok'", [form.id])).toBe(1);
  });

  it('on a phone: every tab in sight, an opened submission reads across the screen; columns chosen and days filtered', async () => {
    const { page } = await d.ownerPage({ viewport: PHONE });
    const workspaceId = workspaceOf(page);
    const schema = [
      { name: 'name', type: 'text', required: true, label: 'Name' },
      { name: 'email', type: 'email', required: true, label: 'Email' },
      { name: 'message', type: 'textarea', label: 'Message' },
      { name: 'company', type: 'text', label: 'Company' },
    ];
    const form = await createContactForm(d.t, { token: await sessionOf(page), workspaceId }, { schema });
    const message = 'We would like a quote for forty seats, delivered before the end of the quarter, with support.';
    const recent = await submit(d.t, form.id, { name: 'Ada Lovelace', email: 'ada@example.com', message, company: 'Analytical Engines' }, { origin: ORIGIN });
    const old = await submit(d.t, form.id, { name: 'Grace Hopper', email: 'grace@example.com', company: 'Navy' }, { origin: ORIGIN });
    await d.t.sql("update submissions set created_at = now() - interval '10 days' where id = ?", [old.json.id]);

    // Every workspace page's tab is in sight: none hides off the side of the screen.
    for (const name of ['Forms', 'API keys', 'Members', 'Audit log', 'Settings']) {
      const box = (await page.getByRole('navigation', { name: 'Workspace pages' }).getByRole('link', { name, exact: true }).boundingBox())!;
      expect(box.x + box.width, name).toBeLessThanOrEqual(PHONE.width);
    }
    await page.goto(`/w/${workspaceId}/forms/${form.id}/submissions`);
    await see(page.getByRole('heading', { level: 1, name: 'Submissions to Contact' }));
    // Nothing chosen: "Delete selected" is grey, not the red of a delete that would happen.
    const deleteSelected = page.getByRole('button', { name: 'Delete selected' });
    expect(await deleteSelected.isDisabled()).toBe(true);
    expect(await deleteSelected.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(208, 215, 222)');

    const row = page.getByRole('row').filter({ hasText: 'Ada Lovelace' });
    const select = row.getByRole('checkbox', { name: /Select the submission/ });
    expect((await select.boundingBox())!.width).toBeGreaterThan(10);
    await row.getByRole('button', { name: 'Open' }).click();
    const detail = page.locator('tr.submission-detail dl.submission');
    await see(detail.getByText(message));
    const opened = (await detail.boundingBox())!;
    // Across the screen, and as tall as a few lines of text, not a letter a line.
    expect(opened.width).toBeGreaterThan(PHONE.width * 0.75);
    expect(opened.height).toBeLessThan(700);
    await expectAccessible(page, 'inbox-phone-opened');
    await row.getByRole('button', { name: 'Close' }).click();

    // The fourth field is not a column until chosen; the choice is kept for the next visit.
    await gone(page.getByRole('cell', { name: 'Analytical Engines' }));
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Company' }).check();
    await see(page.getByRole('cell', { name: 'Analytical Engines' }));
    await page.reload();
    await see(page.getByRole('cell', { name: 'Analytical Engines' }));

    // Days, as the CLI's --since and the API's since/until: the old one is out of today.
    await see(page.getByRole('cell', { name: 'Grace Hopper' }));
    const today = await page.evaluate(() => new Date().toLocaleDateString('sv'));
    await page.getByLabel('From').fill(today);
    await gone(page.getByRole('cell', { name: 'Grace Hopper' }));
    await see(page.getByRole('cell', { name: 'Ada Lovelace' }));
    expect(recent.status).toBe(201);
    await page.getByLabel('From').fill('');
    await page.getByLabel('To').fill(await page.evaluate(() => new Date(Date.now() - 5 * 86_400_000).toLocaleDateString('sv')));
    await see(page.getByRole('cell', { name: 'Grace Hopper' }));
    await gone(page.getByRole('cell', { name: 'Ada Lovelace' }));
    await expectAccessible(page, 'inbox-phone-filtered');
  });

  it('spam, closing and retention settings; the snippet follows them; an owner deletes the form', async () => {
    const { page } = await d.ownerPage({ viewport: PHONE });
    const workspaceId = workspaceOf(page);
    const form = await createContactForm(d.t, { token: await sessionOf(page), workspaceId });
    await page.goto(`/w/${workspaceId}/forms/${form.id}`);
    await see(page.getByRole('heading', { level: 2, name: 'Spam, closing, retention and drafts' }));

    await page.getByLabel('Honeypot field').fill('_gotcha');
    await page.getByLabel('Captcha').selectOption('turnstile');
    await page.getByLabel('Site key').fill('0x4AAAA-site');
    await page.getByLabel('Keep submissions for (days)').fill('0');
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    // The API's errors, each under its field: a captcha needs its secret; retention is a day at least.
    await see(page.getByText('Required: the form has no secret of this provider to keep.'));
    await page.getByLabel('Secret key').fill('the-turnstile-secret');
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    await see(page.getByText('Must be at least 1.'));
    expect(await page.getByLabel('Keep submissions for (days)').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Keep submissions for (days)').fill('90');
    await page.getByLabel('Closed: refuse every submission').check();
    await page.getByLabel('Message when closed').fill('Back in the spring.');
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    await see(page.getByText('Spam and closing settings saved.'));
    await see(page.getByText('Closed', { exact: true }));
    expect(await page.getByLabel('Secret key').inputValue()).toBe('');
    expect(await page.content()).not.toContain('the-turnstile-secret');
    const stored = (await d.t.request('GET', `/v1/forms/${form.id}`, { token: await sessionOf(page) })).json;
    expect(stored).toMatchObject({
      closed: true,
      closed_message: 'Back in the spring.',
      retention_days: 90,
      spam: { honeypot: '_gotcha', captcha: { provider: 'turnstile', site_key: '0x4AAAA-site' } },
    });

    const snippet = page.getByRole('figure').filter({ hasText: 'HTML form' });
    await see(snippet.getByText('<input type="text" name="_gotcha" style="display:none" tabindex="-1" autocomplete="off" aria-hidden="true">'));
    await see(snippet.getByText('<div class="cf-turnstile" data-sitekey="0x4AAAA-site"></div>'));
    await see(snippet.getByText('https://challenges.cloudflare.com/turnstile/v0/api.js'));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'form-inbox-settings');
    await screenshot(page, 'form-inbox-settings-phone');

    await page.getByRole('button', { name: 'Delete form' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete “Contact”?' });
    await confirm.getByRole('button', { name: 'Delete form' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Forms' }));
    expect(await d.t.count('forms where id = ?', [form.id])).toBe(0);
  });

  it('the content filter: its score and reasons on a caught submission, read as a named list; its setting on the form', async () => {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const token = await sessionOf(page);
    const form = await createContactForm(d.t, { token, workspaceId });
    const pitch = {
      name: 'BEST OFFER',
      email: 'promo@mailinator.com',
      message: 'CLICK HERE for FREE money!!! https://bit.ly/abc http://pills.example/buy http://win.example/prize act now!!!',
    };
    const caught = await submit(d.t, form.id, pitch, { origin: ORIGIN });
    expect(caught.status).toBe(201);

    await page.goto(`/w/${workspaceId}/forms/${form.id}/submissions/${caught.json.id}`);
    await see(page.getByText('Its content reads as spam'));
    const reasons = page.getByRole('list', { name: 'What the spam filter noticed' });
    await see(reasons.getByRole('listitem').filter({ hasText: 'It links through a link shortener (bit.ly), which hides where a link goes.' }));
    await see(reasons.getByRole('listitem').filter({ hasText: 'It has 3 links.' }));
    await see(page.getByText(/Spam score \d\.\d\d of 1/));
    await expectAccessible(page, 'submission-spam-reasons');

    await page.goto(`/w/${workspaceId}/forms/${form.id}`);
    await page.getByLabel('Read each submission for spam').uncheck();
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    await see(page.getByText('Spam and closing settings saved.'));
    const shipped = (await d.t.request('GET', `/v1/forms/${form.id}`, { token })).json.spam_filter.threshold;
    expect((await d.t.request('GET', `/v1/forms/${form.id}`, { token })).json.spam_filter).toEqual({ enabled: false, threshold: shipped });
    await page.getByLabel('Read each submission for spam').check();
    await page.getByLabel('Spam above this score').fill('2');
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    await see(page.getByText('Must be at most 0.99.'));
    await page.getByLabel('Spam above this score').fill('0.8');
    await page.getByRole('button', { name: 'Save spam and closing' }).click();
    await see(page.getByText('Spam and closing settings saved.'));
    expect((await d.t.request('GET', `/v1/forms/${form.id}`, { token })).json.spam_filter).toEqual({ enabled: true, threshold: 0.8 });
  });
});
