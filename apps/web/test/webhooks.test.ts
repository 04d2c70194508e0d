/**
 * A form's Webhooks tab in a real Chromium: add an endpoint (its secret shown once, with Copy),
 * send a test event, read the delivery log with each attempt and the payload, retry a failed
 * delivery, disable and enable, rotate and reveal the secret, delete.
 */
import { verifyWebhook } from '@lfk/client';
import { createContactForm, ORIGIN, type Receiver, startReceiver, submit } from '@lfk/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, eventually, expectAccessible, focused, gone, screenshot, see, sessionOf, useDashboard, workspaceOf } from './fixtures.ts';

describeInBrowser('webhooks', () => {
  // No automatic retry within the test: the failed delivery waits for the person's Retry.
  const d = useDashboard({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { retryDelaysMs: [3_600_000] } });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  /** The owner's page on a new form's Webhooks tab, its "Add endpoint" dialog open. */
  async function addEndpointDialog() {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const form = await createContactForm(d.t, { token: await sessionOf(page), workspaceId });
    await page.goto(`/w/${workspaceId}/forms/${form.id}/webhooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    return { page, workspaceId, form, add: page.getByRole('dialog', { name: 'Add a webhook endpoint' }) };
  }

  it('add an endpoint, test it, read and retry deliveries, disable, rotate, reveal and delete', async () => {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const form = await createContactForm(d.t, { token: await sessionOf(page), workspaceId });
    await page.goto(`/w/${workspaceId}/forms/${form.id}`);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Webhooks of Contact' }));
    await see(page.getByText('No webhooks yet.'));

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await add.getByLabel('URL').fill('ftp://example.com');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await see(add.getByText('Must be an http or https URL.'));
    await add.getByLabel('URL').fill(receiver.url);
    await add.getByLabel('Description').fill('CRM');
    // Submissions are chosen already; closing and reopening are asked for here.
    expect(await add.getByLabel(/A submission arrives/).isChecked()).toBe(true);
    await add.getByLabel(/A person closes the form/).check();
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Your endpoint’s signing secret' });
    const secret = await (await see(shown.getByLabel('Signing secret'))).inputValue();
    expect(secret).toMatch(/^whsec_/);
    // The form gave way to the secret: the focus is on it.
    await expect.poll(() => shown.getByLabel('Signing secret').evaluate((input) => input === document.activeElement)).toBe(true);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await see(shown.getByText('Copied to the clipboard.'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page, 'webhook-secret');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await gone(shown);

    const card = page.getByRole('article', { name: receiver.url });
    await see(card.getByText(/events: submission\.created, form\.closed/));
    await card.getByRole('button', { name: 'Send test event' }).click();
    await see(card.getByText(/Test event succeeded: 200/));
    const test = receiver.received.at(-1)!;
    expect(verifyWebhook(secret, test.headers, test.body).type).toBe('webhook.test');

    // A submission whose delivery fails once, then is retried from the log.
    receiver.answers.push({ status: 500, body: 'not today' });
    expect((await submit(d.t, form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: ORIGIN })).status).toBe(201);
    await card.getByText('Deliveries', { exact: true }).click();
    const delivery = card.locator('details.delivery').first();
    await eventually(async () => {
      await card.getByRole('button', { name: 'Refresh' }).click();
      return delivery.locator('summary').textContent();
    }).toContain('1 attempt');
    await delivery.locator('summary').click();
    await see(delivery.getByText(/500 · \d+ ms/));
    await see(delivery.getByText('not today'));
    await see(delivery.getByText('"email": "ada@example.com"'));
    await expectAccessible(page, 'webhook-deliveries');
    await screenshot(page, 'webhooks-desktop');
    await delivery.getByRole('button', { name: 'Retry now' }).click();
    await see(delivery.getByText('Retrying now, with the same webhook-id.'));
    await eventually(async () => {
      await card.getByRole('button', { name: 'Refresh' }).click();
      return card.locator('details.delivery').first().locator('summary').textContent();
    }).toContain('succeeded');

    await card.getByRole('button', { name: 'Disable' }).click();
    await see(card.getByText('Disabled by a person.'));
    // A submission while it is disabled is not sent; enabling offers to send it, with its own id.
    const missed = await submit(d.t, form.id, { name: 'Grace', email: 'grace@example.com' }, { origin: ORIGIN });
    expect(missed.status).toBe(201);
    await card.getByRole('button', { name: 'Enable' }).click();
    const offer = page.getByRole('dialog', { name: 'Send what it missed?' });
    await see(offer.getByText(/1 event was made while it was disabled/));
    await expectAccessible(page, 'webhook-recover-offer');
    // Not now: the focus is back on what opened the offer (the button, now "Disable"), and the
    // events stay offered on the card, also after leaving the page.
    await offer.getByRole('button', { name: 'Not now' }).click();
    await gone(offer);
    await eventually(() => focused(card.getByRole('button', { name: 'Disable' }))).toBe(true);
    await page.reload();
    await see(card.getByText(/Events made while it was disabled .* were not sent to it/));
    await card.getByRole('button', { name: 'Send missed events' }).click();
    await see(offer.getByText(/1 event was made while it was disabled/));
    await offer.getByRole('button', { name: 'Send them' }).click();
    await see(card.getByText('Queued 1 event from while it was disabled, with its original id.'));
    await gone(card.getByRole('button', { name: 'Send missed events' }));
    await eventually(() => focused(page.getByRole('heading', { level: 1 }))).toBe(true);
    await see(card.getByText('Enabled', { exact: true }));
    await eventually(async () => receiver.received.some((r) => r.headers['webhook-id'] === `msg_${missed.json.id.slice('sub_'.length)}`)).toBe(true);

    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'Signing secret' });
    const newSecret = await (await see(rotated.getByLabel('Signing secret'))).inputValue();
    expect(newSecret).not.toBe(secret);
    await see(rotated.getByText(/Secret 2\. The one it replaces keeps signing too until/));
    await rotated.getByRole('button', { name: 'I have copied it' }).click();
    // The secret rotated away is listed, and can be stopped before its 24 hours are up.
    const live = card.getByRole('region', { name: 'Secrets that sign now' });
    await see(live.getByText(/Secret 1: rotated away, signs until/));
    await live.getByRole('button', { name: 'Stop it now' }).click();
    await gone(live);
    expect(await d.t.count("audit_events where action = 'webhook.secret_ended'")).toBeGreaterThan(0);
    await card.getByRole('button', { name: 'Reveal secret' }).click();
    expect(await (await see(page.getByRole('dialog', { name: 'Signing secret' }).getByLabel('Signing secret'))).inputValue()).toBe(newSecret);
    await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'I have copied it' }).click();
    await eventually(() => focused(card.getByRole('button', { name: 'Reveal secret' }))).toBe(true);

    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
    await see(page.getByText('No webhooks yet.'));
    expect(await d.t.count('webhook_endpoints where form_id = ?', [form.id])).toBe(0);
  });

  it('an endpoint that signs with Ed25519: its public key on the card, no secret to reveal, a new key pair on rotation', async () => {
    const { page, form, add } = await addEndpointDialog();
    await add.getByLabel('URL').fill(`${receiver.url}?keyed`);
    expect(await add.getByLabel(/With a secret your server keeps/).isChecked()).toBe(true);
    await add.getByLabel(/With a key pair/).check();
    await expectAccessible(page, 'webhook-add-ed25519');
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await gone(add);
    const card = page.getByRole('article', { name: `${receiver.url}?keyed` });
    await see(card.getByText(/signs with Ed25519/));
    const [stored] = await d.t.sql<{ public_key: string }>('select public_key from webhook_endpoints where form_id = ?', [form.id]);
    await see(card.getByText(stored!.public_key));
    await gone(card.getByRole('button', { name: 'Reveal secret' }));

    await card.getByRole('button', { name: 'Send test event' }).click();
    await see(card.getByText(/Test event succeeded: 200/));
    const test = receiver.received.at(-1)!;
    expect(verifyWebhook(stored!.public_key, test.headers, test.body).type).toBe('webhook.test');

    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    await see(card.getByText(/Key pair 2\. The one it replaces keeps signing too until .*: give your servers its public key \(below\) before then\./));
    const [rotated] = await d.t.sql<{ public_key: string }>('select public_key from webhook_endpoints where form_id = ?', [form.id]);
    expect(rotated!.public_key).not.toBe(stored!.public_key);
    await see(card.getByText(rotated!.public_key, { exact: true }));
  });

  it('a Slack endpoint: no secret to copy, a readable message whose link opens the submission', async () => {
    const { page, workspaceId, form, add } = await addEndpointDialog();
    await add.getByLabel(/A Slack channel/).check();
    await see(add.getByText(/The channel’s incoming webhook URL/));
    await add.getByLabel('URL').fill(`${receiver.url}?slack`);
    await add.getByRole('button', { name: 'Add endpoint' }).click();
    await gone(add);
    const card = page.getByRole('article', { name: `${receiver.url}?slack` });
    await see(card.getByText('Slack', { exact: true }));
    // Slack checks no signature: nothing to reveal or rotate, and the card says so.
    await see(card.getByText(/not signed \(the channel checks no signature: keep its URL secret\)/));
    await expect.poll(() => card.getByRole('button', { name: /Reveal secret|Rotate secret/ }).count()).toBe(0);

    const sent = await submit(d.t, form.id, { name: 'Ada', email: 'ada@example.com', message: 'Hello from Slack' }, { origin: ORIGIN });
    expect(sent.status).toBe(201);
    await eventually(() => receiver.received.some((r) => r.url.endsWith('?slack'))).toBe(true);
    const body = JSON.parse(receiver.received.find((r) => r.url.endsWith('?slack'))!.body);
    const link = /<(http[^|]+)\|Open it in lfk>/.exec(body.blocks.at(-1).elements[0].text)![1]!;
    expect(new URL(link).pathname).toBe(`/w/${workspaceId}/forms/${form.id}/submissions/${sent.json.id}`);
    await page.goto(new URL(link).pathname);
    await see(page.getByRole('heading', { level: 1, name: 'Submission to Contact' }));
    await see(page.getByText('Hello from Slack'));
    await see(page.getByText(sent.json.id));
    await expectAccessible(page, 'submission-page');
    await page.getByRole('link', { name: 'All submissions to Contact' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Submissions to Contact' }));
  });

  it('a delivery held when a key moved the endpoint: said in words, and discarded', async () => {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const token = await sessionOf(page);
    const form = await createContactForm(d.t, { token, workspaceId });
    const { key } = await d.t.createKey(token, workspaceId);
    const created = await d.t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: key, body: { url: `${receiver.url}?before` } });
    receiver.answers.push({ status: 500 });
    expect((await submit(d.t, form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: ORIGIN })).status).toBe(201);
    await eventually(
      async () =>
        (await d.t.sql<{ n: number }>('select jsonb_array_length(attempts) as n from webhook_deliveries where endpoint_id = ?', [created.json.id]))[0]?.n,
    ).toBe(1);
    const moved = await d.t.request('PATCH', `/v1/forms/${form.id}/webhooks/${created.json.id}`, { token: key, body: { url: `${receiver.url}?after` } });
    expect(moved.status, moved.body).toBe(200);

    await page.goto(`/w/${workspaceId}/forms/${form.id}/webhooks`);
    const card = page.getByRole('article', { name: `${receiver.url}?after` });
    await card.getByText('Deliveries', { exact: true }).click();
    const delivery = card.locator('details.delivery').first();
    await see(delivery.locator('summary').getByText('held'));
    await delivery.locator('summary').click();
    await see(delivery.getByText('Held: it was queued for a previous URL of this endpoint, and is not sent on its own.', { exact: false }));
    await see(delivery.getByText(`${receiver.url}?before`));
    await expectAccessible(page, 'webhook-held-delivery');
    await delivery.getByRole('button', { name: 'Discard' }).click();
    await see(delivery.getByText('Discarded: it will not be sent. Retry can still send it.'));
    await gone(delivery.getByRole('button', { name: 'Discard' }));
    expect((await d.t.sql<{ status: string }>('select status from webhook_deliveries where endpoint_id = ?', [created.json.id]))[0]!.status).toBe('discarded');
  });
});
