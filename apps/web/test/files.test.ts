/**
 * Files in a real Chromium: a file field made in the field builder (its types, size and count; a
 * size above the server's limit refused beside the field), the snippet that posts it, a file sent
 * with a key read in the inbox and downloaded through the page's link (the same bytes), a
 * quarantined file saying why, and the workspace's file link lifetime.
 */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, see, sessionOf, useDashboard, workspaceOf } from './fixtures.ts';

const SITE = 'https://example.com';
const MiB = 1024 * 1024;
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(3000, 0x20), Buffer.from('\n%%EOF\n')]);

describeInBrowser('files', () => {
  // A server taking files of 1 MiB at most, so a field asking for more is refused.
  const d = useDashboard({ LFK_MAX_FILE_SIZE: String(MiB) });

  it('a file field made in the builder; a file sent with a key is listed in the inbox, downloaded whole, or quarantined with why', async () => {
    const { page } = await d.ownerPage();
    const token = await sessionOf(page);
    const { key } = await d.t.createKey(token, workspaceOf(page));

    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await page.getByRole('link', { name: 'Create form' }).click();
    await page.getByLabel('Form name').fill('Applications');
    await page.getByLabel('Allowed origins', { exact: true }).fill(SITE);
    await page.getByRole('button', { name: 'Add field' }).click();
    const cv = page.getByRole('group', { name: 'Field 3' });
    await cv.getByLabel('Field name').fill('cv');
    await cv.getByLabel('Type').selectOption('file');
    await cv.getByLabel('Label').fill('CV');
    await cv.getByLabel('Required').check();
    await cv.getByRole('button', { name: 'PDF', exact: true }).click();
    expect(await cv.getByLabel('Accepted types').inputValue()).toBe('application/pdf');
    await cv.getByLabel('Max size (MB)').fill('2');
    await see(cv.getByText('2,097,152 bytes'));
    await page.getByRole('button', { name: 'Add field' }).click();
    const photos = page.getByRole('group', { name: 'Field 4' });
    await photos.getByLabel('Field name').fill('photos');
    await photos.getByLabel('Type').selectOption('file');
    await photos.getByRole('button', { name: 'Images', exact: true }).click();
    await photos.getByLabel('Takes several files').check();
    await photos.getByLabel('Max files').fill('3');
    await expectAccessible(page, 'new-form-file-fields');

    // 2 MB is within what any server may take, but above this one's LFK_MAX_FILE_SIZE: the API
    // refuses it, and says so under the field.
    await page.getByRole('button', { name: 'Create form' }).click();
    await see(cv.getByText('Must be at most 1048576 bytes'));
    expect(await cv.getByLabel('Max size (MB)').getAttribute('aria-invalid')).toBe('true');
    await cv.getByLabel('Max size (MB)').fill('0.5');
    await page.getByRole('button', { name: 'Create form' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Applications' }));
    const formId = /forms\/(form_[0-9A-Za-z]+)/.exec(page.url())![1]!;
    const [stored] = await d.t.sql<{ schema: unknown }>('select schema from forms where id = ?', [formId]);
    expect(stored!.schema).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'cv', type: 'file', required: true, label: 'CV', accept: ['application/pdf'], max_size: MiB / 2 }),
        expect.objectContaining({ name: 'photos', type: 'file', accept: ['image/*'], multiple: true, max_files: 3 }),
      ]),
    );
    // The page shows the form as saved: the editor reads the same settings back.
    await page.reload();
    expect(await page.getByRole('group', { name: 'Field 3' }).getByLabel('Max size (MB)').inputValue()).toBe('0.5');
    expect(await page.getByRole('group', { name: 'Field 4' }).getByLabel('Max files').inputValue()).toBe('3');

    // The HTML form posts multipart, with an input of type file for each file field.
    const snippet = page.getByRole('figure').filter({ hasText: 'HTML form' });
    await see(snippet.getByText(`action="${d.url}/v1/forms/${formId}/submissions" enctype="multipart/form-data"`));
    await see(snippet.getByText('<input type="file" name="cv" accept="application/pdf" required>'));
    await see(snippet.getByText('<input type="file" name="photos" accept="image/*" multiple>'));

    // A server sends a submission with a file, with its key, as multipart.
    const body = new FormData();
    body.append('email', 'ada@example.org');
    body.append('message', 'My application.');
    body.append('cv', new Blob([PDF], { type: 'application/pdf' }), 'Ada Lovelace CV.pdf');
    const sent = await fetch(`${d.url}/v1/forms/${formId}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const submissionId = ((await sent.json()) as { id: string }).id;

    // The inbox names the file; opened, the submission links to it with its size and type.
    await page.getByRole('link', { name: 'Submissions' }).first().click();
    const row = page.getByRole('row').filter({ hasText: 'ada@example.org' });
    await see(row.getByRole('cell', { name: 'Ada Lovelace CV.pdf' }));
    await row.getByRole('button', { name: 'Open' }).click();
    const detail = page.locator('tr.submission-detail');
    const link = detail.getByRole('link', { name: 'Ada Lovelace CV.pdf' });
    await see(link);
    await see(detail.getByText('3.0 KiB · application/pdf'));
    await expectAccessible(page, 'submission-with-file');
    await screenshot(page, 'submission-with-file');

    // The link is the REST route; the page's session cookie is all it needs.
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('Ada Lovelace CV.pdf');
    expect(Buffer.compare(await readFile((await download.path())!), PDF)).toBe(0);

    // A file the malware scanner found something in is listed, says what, and has no link.
    await d.t.sql(`update submission_files set status = 'quarantined', malware_signature = 'Win.Test.EICAR_HDB-1' where submission_id = ?`, [submissionId]);
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'ada@example.org' }).getByRole('button', { name: 'Open' }).click();
    await see(detail.getByText('Quarantined'));
    await see(detail.getByText('The malware scanner found Win.Test.EICAR_HDB-1 in it, so it cannot be downloaded.'));
    expect(await detail.getByRole('link', { name: 'Ada Lovelace CV.pdf' }).count()).toBe(0);
    await expectAccessible(page, 'submission-with-quarantined-file');
  });

  it('an owner sets how long the workspace file links live: a preset, a custom lifetime, or the server default', async () => {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const ttl = async () =>
      (await d.t.sql<{ file_link_ttl: number | null }>('select file_link_ttl from workspaces where id = ?', [workspaceId]))[0]!.file_link_ttl;
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    const links = page.getByRole('region', { name: 'File links' });
    const choice = links.getByLabel('File links expire after');
    expect(await choice.inputValue()).toBe('default');

    await choice.selectOption({ label: '1 day' });
    await links.getByRole('button', { name: 'Save' }).click();
    await see(links.getByText('Saved: links made from now on expire after 1 day.'));
    expect(await ttl()).toBe(86_400);

    // Custom: checked by the API's schema before it is sent (a minute at least).
    await choice.selectOption('custom');
    await links.getByLabel('Custom lifetime').fill('30');
    await links.getByLabel('Unit').selectOption('minutes');
    await links.getByRole('button', { name: 'Save' }).click();
    await see(links.getByText('Saved: links made from now on expire after 30 minutes.'));
    expect(await ttl()).toBe(1800);
    await links.getByLabel('Custom lifetime').fill('0.5');
    await links.getByRole('button', { name: 'Save' }).click();
    await see(links.getByText('Must be at least 60 seconds (a minute).'));
    expect(await links.getByLabel('Custom lifetime').getAttribute('aria-invalid')).toBe('true');
    expect(await ttl()).toBe(1800);
    await expectAccessible(page, 'workspace-file-links');

    // The page reads the lifetime back as it was saved.
    await page.reload();
    expect(await choice.inputValue()).toBe('custom');
    expect(await links.getByLabel('Custom lifetime').inputValue()).toBe('30');
    expect(await links.getByLabel('Unit').inputValue()).toBe('minutes');

    await choice.selectOption('default');
    await links.getByRole('button', { name: 'Save' }).click();
    await see(links.getByText("Saved: links made from now on expire after the server's default."));
    expect(await ttl()).toBeNull();
  });
});
