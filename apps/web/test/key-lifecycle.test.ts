/**
 * The rest of a key's life in a real Chromium (issue 14): expiry chosen on create, Roll with a
 * grace period (the new key shown once, both working until the grace ends), one key's page with
 * where it was last used and a usage chart equal to the requests made, a roll refused because the
 * key changed meanwhile explained, and a leaked key shown as such with the reporter in the audit log.
 */
import { reporterKeys, signed } from '@lfk/server/testing';
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, gone, screenshot, see, sessionOf, useDashboard, workspaceOf } from './fixtures.ts';

const github = reporterKeys();

describeInBrowser('A key’s life: expiry, roll, usage, leaks', () => {
  const d = useDashboard({ LFK_SECRET_SCANNING_KEYS: github.env });

  /** A form a program makes with the key: what `statusWith` then reads. */
  const formMadeWith = async (key: string, userAgent = 'lfk-dashboard-test'): Promise<string> => {
    const res = await fetch(`${d.url}/v1/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'user-agent': userAgent },
      body: JSON.stringify({ name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };

  /** The key's answer to a program reading that form with it. */
  const statusWith = async (key: string, formId: string, userAgent = 'lfk-dashboard-test') =>
    (await fetch(`${d.url}/v1/forms/${formId}`, { headers: { authorization: `Bearer ${key}`, 'user-agent': userAgent } })).status;

  const keyOf = async (session: string, workspaceId: string, keyId: string) =>
    (await d.t.request('GET', `/v1/workspaces/${workspaceId}/api-keys/${keyId}`, { token: session })).json;

  it('create a key expiring in 30 days → roll it with 24 hours’ grace → the new key is shown once and both work until then', async () => {
    const { page } = await d.ownerPage();
    const session = await sessionOf(page);
    const workspaceId = workspaceOf(page);

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    await dialog.getByLabel('Name').fill('billing sync');
    await dialog.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const oldKey = await shown.getByLabel(/API key/).inputValue();
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await gone(shown);

    const listed = (await d.t.request('GET', `/v1/workspaces/${workspaceId}/api-keys`, { token: session })).json.data;
    expect(listed).toHaveLength(1);
    const old = listed[0];
    const daysAhead = (Date.parse(old.expires_at) - Date.now()) / 86_400_000;
    expect(daysAhead).toBeGreaterThan(29.9);
    expect(daysAhead).toBeLessThanOrEqual(30);
    // The row shows that instant (a <time> carries it exactly).
    const row = page.getByRole('row', { name: /billing sync/ });
    await see(row.locator(`td[data-label="Expires"] time[datetime="${old.expires_at}"]`));

    await row.getByRole('button', { name: 'Roll billing sync' }).click();
    const roll = page.getByRole('dialog', { name: /Roll “billing sync” \(lfk_[0-9A-Za-z]{6}…\)\?/ });
    await see(roll.getByLabel('The old key stops working'));
    expect(await roll.getByLabel('The old key stops working').locator('option').allTextContents()).toEqual([
      'Stop it now',
      'In 1 hour',
      'In 24 hours',
      'In 7 days',
    ]);
    await roll.getByLabel('The old key stops working').selectOption({ label: 'In 24 hours' });
    await expectAccessible(page, 'api-keys-roll-dialog');
    await roll.getByRole('button', { name: 'Roll key' }).click();

    const rolled = page.getByRole('dialog', { name: 'Your new API key' });
    await see(rolled.getByText('You will not see it again'));
    const newKey = await rolled.getByLabel(/API key “billing sync”/).inputValue();
    expect(newKey).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    expect(newKey).not.toBe(oldKey);
    await rolled.getByRole('button', { name: 'I have copied it' }).click();
    await gone(rolled);
    expect(await page.content()).not.toContain(newKey);

    // Both work during the grace period, and both count.
    const formId = await formMadeWith(oldKey);
    expect(await statusWith(oldKey, formId)).toBe(200);
    expect(await statusWith(newKey, formId)).toBe(200);
    await see(page.getByText('2 of 10 active'));
    const stored = await keyOf(session, workspaceId, old.id);
    expect(stored.rolled_to).toMatch(/^key_/);
    const graceHours = (Date.parse(stored.expires_at) - Date.now()) / 3_600_000;
    expect(graceHours).toBeGreaterThan(23.9);
    expect(graceHours).toBeLessThanOrEqual(24);

    // The old row says it was replaced and until when it works, and cannot be rolled twice.
    const rows = page.getByRole('row', { name: /billing sync/ });
    await expect.poll(() => rows.count()).toBe(2);
    const oldRow = page.getByRole('row').filter({ has: page.getByText('replaced; stops working') });
    await see(oldRow.locator(`time[datetime="${stored.expires_at}"]`));
    // Read as a sentence: "replaced; stops working in 24 hours", never "works until in 24 hours".
    expect(await oldRow.getByText(/replaced; stops working/).textContent()).toMatch(/^\s*replaced; stops working in 2[34] hours$/);
    expect(await oldRow.getByRole('button', { name: /^Roll/ }).count()).toBe(0);
    await see(oldRow.getByRole('button', { name: 'Revoke billing sync' }));
    await screenshot(page, 'api-keys-rolled');

    // Its page links to the key that replaced it.
    await oldRow.getByRole('link', { name: 'billing sync' }).click();
    await see(page.getByRole('heading', { name: 'billing sync', level: 1 }));
    await page.getByRole('link', { name: stored.rolled_to }).click();
    await page.waitForURL(new RegExp(`/keys/${stored.rolled_to}$`));
    await see(page.getByRole('button', { name: 'Roll key' }));
  });

  it('one key’s page: last used from where and with what, daily requests equal to those made; roll with no grace stops it at once', async () => {
    const { page } = await d.ownerPage();
    const session = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    const { key, id } = await d.t.createKey(session, workspaceId, 'nightly export');
    // One form made and six reads of it: seven requests.
    const formId = await formMadeWith(key, 'export-job/2.1');
    for (let i = 0; i < 6; i++) expect(await statusWith(key, formId, 'export-job/2.1')).toBe(200);
    await d.t.server.services.keyUses.flush();

    await page.goto(`/w/${workspaceId}/keys/${id}`);
    await see(page.getByRole('heading', { name: 'nightly export', level: 1 }));
    const facts = page.locator('dl.facts');
    await see(facts.getByText('export-job/2.1'));
    await see(facts.getByText('127.0.0.1'));
    await see(page.getByText('7 requests and 0 refusals in the last 30 days'));
    // The chart's axes: the busiest day's count at the top of its scale, and the days below it.
    const plot = page.locator('.usage-plot');
    await see(plot.locator('.usage-y').getByText('7/day'));
    const todayLabel = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date());
    expect(await plot.locator('.usage-x span').last().textContent()).toBe(todayLabel);
    expect(await plot.locator('.usage-x span').count()).toBe(3);
    await screenshot(page, 'api-key-page');
    await page.getByText('Requests by day').click();
    const today = page
      .getByRole('table', { name: /Requests that presented this key/ })
      .getByRole('row')
      .last();
    await see(today.getByRole('cell', { name: '7', exact: true }));
    await expectAccessible(page, 'api-key-page');

    await page.getByRole('button', { name: 'Roll key' }).click();
    const roll = page.getByRole('dialog', { name: /Roll “nightly export”/ });
    await roll.getByLabel('The old key stops working').selectOption({ label: 'Stop it now' });
    await roll.getByRole('button', { name: 'Roll key' }).click();
    const rolled = page.getByRole('dialog', { name: 'Your new API key' });
    const newKey = await rolled.getByLabel(/API key/).inputValue();
    await rolled.getByRole('button', { name: 'I have copied it' }).click();
    await gone(rolled);

    await see(facts.getByText('Rolled'));
    await see(facts.getByText('replaced by a new key'));
    expect(await page.getByRole('button', { name: 'Roll key' }).count()).toBe(0);
    expect(await statusWith(key, formId)).toBe(401);
    expect(await statusWith(newKey, formId)).toBe(200);
  });

  it('a roll refused because the key changed meanwhile (rolled, or revoked, elsewhere) says why and what to do', async () => {
    const { page } = await d.ownerPage();
    const session = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    const rolledElsewhere = await d.t.createKey(session, workspaceId, 'first');
    const revokedElsewhere = await d.t.createKey(session, workspaceId, 'second');
    await page.reload();

    await page.getByRole('button', { name: 'Roll first' }).click();
    const first = page.getByRole('dialog', { name: /Roll “first”/ });
    await see(first);
    const grace = await d.t.request('POST', `/v1/workspaces/${workspaceId}/api-keys/${rolledElsewhere.id}/roll`, {
      token: session,
      body: { grace_seconds: 3600 },
    });
    expect(grace.status).toBe(201);
    await first.getByRole('button', { name: 'Roll key' }).click();
    await see(first.getByRole('alert').getByText('This key was already rolled and is in its grace period'));
    await expectAccessible(page, 'api-keys-roll-already-rolled');
    await first.getByRole('button', { name: 'Cancel' }).click();
    await gone(first);

    await page.getByRole('button', { name: 'Roll second' }).click();
    const second = page.getByRole('dialog', { name: /Roll “second”/ });
    await see(second);
    const revoke = await d.t.request('DELETE', `/v1/workspaces/${workspaceId}/api-keys/${revokedElsewhere.id}`, { token: session });
    expect(revoke.status).toBe(204);
    await second.getByRole('button', { name: 'Roll key' }).click();
    await see(second.getByRole('alert').getByText('This key has already stopped working'));
    // Nothing was made by either refusal: the first key's replacement only.
    const keys = (await d.t.request('GET', `/v1/workspaces/${workspaceId}/api-keys`, { token: session })).json.data;
    expect(keys).toHaveLength(3);
  });

  it('a key GitHub reports as leaked is revoked and shown as Leaked; the audit log names the reporter and where it was found', async () => {
    const { page } = await d.ownerPage();
    const session = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    const { key } = await d.t.createKey(session, workspaceId, 'ci token');
    const formId = await formMadeWith(key);
    await page.reload();
    await see(page.getByRole('row', { name: /ci token/ }).getByText('Active'));

    const found = 'https://github.com/someone/app/blob/main/.env';
    const body = JSON.stringify([{ token: key, type: 'lfk_api_key', url: found, source: 'content' }]);
    const report = await fetch(`${d.url}/v1/secret-scanning/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signed(body, github) },
      body,
    });
    expect(report.status).toBe(200);
    expect(await statusWith(key, formId)).toBe(401);

    await page.reload();
    const row = page.getByRole('row', { name: /ci token/ });
    await see(row.getByText('Leaked'));
    await see(row.getByText('found in public by a secret scanner'));
    expect(await row.getByRole('button').count()).toBe(0);

    await page.getByRole('link', { name: 'Audit log' }).click();
    const event = page.getByRole('row', { name: /revoked a leaked API key/ });
    await see(event.getByText('GitHub secret scanning'));
    await see(event.getByText(found));
    await expectAccessible(page, 'audit-log-leaked-key');
  });
});
