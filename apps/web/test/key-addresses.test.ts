/**
 * Issue 28 in a real Chromium: a key limited to addresses and given a date of the owner's choosing
 * on create; edited later (renamed, described, its addresses changed); and a revoked key still
 * being tried, said in the key list and charted, refused beside accepted, on the key's page.
 */
import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, gone, screenshot, see, sessionOf, useDashboard, workspaceOf } from './fixtures.ts';

describeInBrowser('Where a key may be used, and who still tries it', () => {
  const d = useDashboard();

  /** A program's request with `key`: 404 (no such form) when accepted, 401 when refused. */
  const statusWithKey = async (key: string) =>
    (await fetch(`${d.url}/v1/forms/form_01jzzzzzzzzzzzzzzzzzzzzzzz`, { headers: { authorization: `Bearer ${key}` } })).status;

  it(
    'create a key for some addresses, expiring on a chosen date → a wrong address is said beside its box → ' + 'the key works only from those addresses',
    async () => {
      const { page } = await d.ownerPage();
      const session = await sessionOf(page);
      const workspaceId = workspaceOf(page);

      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create an API key' });
      await dialog.getByLabel('Name').fill('payroll');
      await dialog.getByLabel('Description').fill('The payroll server in Lyon');
      await dialog.getByLabel('Allowed IP addresses').fill('127.0.0.1\nnot-an-address');
      await dialog.getByLabel('Expires', { exact: true }).selectOption({ label: 'On a date you choose…' });
      // Ten days ahead, at 09:30 in the browser's own time.
      const chosen = new Date(Date.now() + 10 * 86_400_000);
      chosen.setHours(9, 30, 0, 0);
      const local = `${chosen.getFullYear()}-${String(chosen.getMonth() + 1).padStart(2, '0')}-${String(chosen.getDate()).padStart(2, '0')}T09:30`;
      await dialog.getByLabel('Expires on').fill(local);
      await dialog.getByRole('button', { name: 'Create key' }).click();
      const box = dialog.getByLabel('Allowed IP addresses');
      await expect.poll(() => box.getAttribute('aria-invalid')).toBe('true');
      await see(dialog.getByText(/Must be an IPv4 or IPv6 address or CIDR range/));
      await expectAccessible(page, 'create-key-addresses');

      await box.fill('127.0.0.1\n2001:DB8::/32');
      await dialog.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByRole('dialog', { name: 'Your new API key' });
      const key = await shown.getByLabel(/API key/).inputValue();
      await shown.getByRole('button', { name: 'I have copied it' }).click();
      await gone(shown);

      const [made] = (await d.t.request('GET', `/v1/workspaces/${workspaceId}/api-keys`, { token: session })).json.data;
      expect(made).toMatchObject({ name: 'payroll', description: 'The payroll server in Lyon', allowed_ips: ['127.0.0.1', '2001:db8::/32'] });
      expect(made.expires_at).toBe(chosen.toISOString());
      // This test's requests come from 127.0.0.1: allowed.
      expect(await statusWithKey(key)).toBe(404);

      await page.getByRole('link', { name: 'payroll' }).click();
      await see(page.getByRole('heading', { name: 'payroll', level: 1 }));
      await see(page.getByText('The payroll server in Lyon'));
      await see(page.locator('dl.facts').getByText('127.0.0.1, 2001:db8::/32'));
    },
  );

  it('edit a key: rename it, describe it, move it to another address → its next request from here is refused, and counted', async () => {
    const { page } = await d.ownerPage();
    const session = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    const { key, id } = await d.t.createKey(session, workspaceId, 'mover');
    expect(await statusWithKey(key)).toBe(404);

    await page.goto(`/w/${workspaceId}/keys/${id}`);
    await see(page.locator('dl.facts').getByText('Any address'));
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: /Edit “mover”/ });
    await dialog.getByLabel('Name').fill('mover (moved)');
    await dialog.getByLabel('Description').fill('Now on the new host');
    await dialog.getByLabel('Allowed IP addresses').fill('192.0.2.10');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await gone(dialog);
    await see(page.getByRole('heading', { name: 'mover (moved)', level: 1 }));
    await see(page.locator('dl.facts').getByText('192.0.2.10'));
    expect(await statusWithKey(key)).toBe(401);
    await d.t.server.services.keyUses.flush();
    await page.reload();
    await see(page.locator('dl.facts').getByText('refused 1 time today'));
    await page.getByText('Requests by day').click();
    const today = page
      .getByRole('table', { name: /Requests that presented this key/ })
      .getByRole('row')
      .last();
    await see(today.getByRole('cell', { name: 'address not allowed 1' }));

    const audit = (await d.t.request('GET', `/v1/workspaces/${workspaceId}/audit-events`, { token: session })).json.data;
    expect(audit[0]).toMatchObject({
      action: 'api_key.updated',
      data: { fields: ['name', 'description', 'allowed_ips'], allowed_ips: { from: null, to: ['192.0.2.10'] } },
    });

    // Only what is changed in the dialog is sent: another owner's change meanwhile is kept.
    await page.getByRole('button', { name: 'Edit' }).click();
    const again = page.getByRole('dialog', { name: /Edit “mover \(moved\)”/ });
    const meanwhile = await d.t.request('PATCH', `/v1/workspaces/${workspaceId}/api-keys/${id}`, { token: session, body: { allowed_ips: ['127.0.0.1'] } });
    expect(meanwhile.status).toBe(200);
    await again.getByLabel('Name').fill('mover (home)');
    await again.getByRole('button', { name: 'Save' }).click();
    await gone(again);
    await see(page.getByRole('heading', { name: 'mover (home)', level: 1 }));
    expect((await d.t.request('GET', `/v1/workspaces/${workspaceId}/api-keys/${id}`, { token: session })).json).toMatchObject({
      name: 'mover (home)',
      description: 'Now on the new host',
      allowed_ips: ['127.0.0.1'],
    });
  });

  it('a revoked key still being tried: the list says so, and its chart shows the refusals beside the requests', async () => {
    const { page } = await d.ownerPage();
    const session = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    const { key, id } = await d.t.createKey(session, workspaceId, 'forgotten worker');
    for (let i = 0; i < 2; i++) expect(await statusWithKey(key)).toBe(404);
    expect((await d.t.request('DELETE', `/v1/workspaces/${workspaceId}/api-keys/${id}`, { token: session })).status).toBe(204);
    for (let i = 0; i < 3; i++) expect(await statusWithKey(key)).toBe(401);
    await d.t.server.services.keyUses.flush();

    await page.goto(`/w/${workspaceId}/keys`);
    const row = page.getByRole('row', { name: /forgotten worker/ });
    await see(row.getByText('still tried 3 times today'));
    await expectAccessible(page, 'keys-still-tried');
    await screenshot(page, 'api-keys-still-tried');

    await row.getByRole('link', { name: 'forgotten worker' }).click();
    await see(page.getByText('2 requests and 3 refusals in the last 30 days'));
    // One stacked bar today: two accepted, three refused above them, on a scale to 5.
    await see(page.locator('.usage-y').getByText('5/day'));
    await see(page.locator('.usage-legend').getByText('Refused', { exact: false }));
    await page.getByText('Requests by day').click();
    const today = page
      .getByRole('table', { name: /Requests that presented this key/ })
      .getByRole('row')
      .last();
    await see(today.getByRole('cell', { name: 'revoked 3' }));
    await screenshot(page, 'api-key-refused-chart');
    await expectAccessible(page, 'api-key-refused-chart');
  });
});
