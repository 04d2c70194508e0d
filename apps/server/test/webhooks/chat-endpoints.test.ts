/**
 * Issue 40: an endpoint of kind `slack` or `discord` posts a readable message about each event (the
 * form, the values, a link to the submission) to their incoming-webhook URL, through the same
 * queue, retries and log; a value can neither mention a channel nor format the message.
 */
import { createContactForm, ORIGIN, type Receiver, startReceiver, submit, until, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveriesOf } from './fixtures.ts';

const t = useTestServer({ LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50 } });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const HOSTILE = { name: 'Ada <!channel> & *bold* @everyone', email: 'ada@example.com', message: '[click](https://evil.example)\n# heading' };

async function chatEndpoint(kind: 'slack' | 'discord') {
  const owner = await t.signup();
  const form = await createContactForm(t, owner);
  const created = await t.request('POST', `/v1/forms/${form.id}/webhooks`, {
    token: owner.token,
    body: { url: `${receiver.url}?${form.id}`, kind, events: ['submission.created', 'form.closed'] },
  });
  expect(created.status, created.body).toBe(201);
  expect(created.json.kind).toBe(kind);
  const messages = () => receiver.received.filter((r) => r.url.endsWith(`?${form.id}`)).map((r) => JSON.parse(r.body));
  return { owner, form, webhook: created.json, messages };
}

describe('a Slack endpoint', () => {
  it('gets a message with the form, each value escaped, and a link to the submission; the log keeps the event', async () => {
    const { owner, form, webhook, messages } = await chatEndpoint('slack');
    const sent = await submit(t, form.id, HOSTILE, { origin: ORIGIN });
    expect(sent.status).toBe(201);
    const [message] = await until('the message', () => (messages().length >= 1 ? messages() : undefined));
    expect(message.text).toBe('New submission to Contact');
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'New submission to Contact' } });
    const fields = message.blocks
      .filter((b: { type: string }) => b.type === 'section')
      .flatMap((b: { fields: { text: string }[] }) => b.fields.map((f) => f.text));
    // `<`, `>` and `&` escaped: `<!channel>` mentions nobody.
    expect(fields).toContain('*name*\nAda &lt;!channel&gt; &amp; *bold* @everyone');
    expect(fields).toContain('*email*\nada@example.com');
    const context = message.blocks.at(-1);
    expect(context.type).toBe('context');
    expect(context.elements[0].text).toContain(`<http://lfk.test/w/${owner.workspaceId}/forms/${form.id}/submissions/${sent.json.id}|Open it in lfk>`);
    expect(context.elements[0].text).toContain(`${sent.json.id} · from a browser`);

    const logged = await deliveriesOf(t, owner, { formId: form.id, webhookId: webhook.id });
    expect(logged[0]!.payload).toMatchObject({ type: 'submission.created', data: { submission: { id: sent.json.id } } });

    // The form closed, in words; and a test message.
    await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { closed: true, closed_message: 'See you in <May>.' } });
    const closed = await until('the closing message', () => messages().find((m) => m.text.endsWith('was closed to submissions')));
    expect(closed.blocks[1]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: 'Visitors are told: See you in &lt;May&gt;.' } });
    const tested = await t.request('POST', `/v1/forms/${form.id}/webhooks/${webhook.id}/test`, { token: owner.token });
    expect(tested.json.status).toBe('succeeded');
    expect(messages().at(-1).text).toBe('A test message from lfk for Contact');
  });
});

describe('a chat endpoint is not signed', () => {
  it('no secret when made, none listed, none to reveal, rotate or end, and its messages carry no signature', async () => {
    for (const kind of ['slack', 'discord'] as const) {
      const { owner, form, webhook, messages } = await chatEndpoint(kind);
      expect(webhook, kind).toMatchObject({ signing: null, public_key: null, secrets: [], secret: null });
      const base = `/v1/forms/${form.id}/webhooks/${webhook.id}`;
      for (const [method, path] of [
        ['GET', `${base}/secret`],
        ['POST', `${base}/rotate-secret`],
        ['DELETE', `${base}/secrets/1`],
      ] as const) {
        const refused = await t.request(method, path, { token: owner.token });
        expect([refused.status, refused.json.error.code], `${kind}: ${method} ${path}`).toEqual([409, 'webhook_not_signed']);
      }
      await submit(t, form.id, HOSTILE, { origin: ORIGIN });
      await until('the message', () => messages().length >= 1);
      const sent = receiver.received.find((r) => r.url.endsWith(`?${form.id}`))!;
      expect(
        Object.keys(sent.headers).filter((name) => name.startsWith('webhook-')),
        kind,
      ).toEqual([]);
    }
  });
});

describe('a Discord endpoint', () => {
  it('gets an embed with each value escaped and mentions off', async () => {
    const { form, messages } = await chatEndpoint('discord');
    const sent = await submit(t, form.id, HOSTILE, { origin: ORIGIN });
    const [message] = await until('the message', () => (messages().length >= 1 ? messages() : undefined));
    expect(message.allowed_mentions).toEqual({ parse: [] });
    const [embed] = message.embeds;
    expect(embed.title).toBe('New submission to Contact');
    expect(embed.url).toMatch(new RegExp(`/forms/${form.id}/submissions/${sent.json.id}$`));
    expect(embed.fields).toEqual([
      { name: 'name', value: 'Ada <!channel> & \\*bold\\* @everyone', inline: false },
      { name: 'email', value: 'ada@example.com', inline: false },
      // No masked link, no heading.
      { name: 'message', value: '\\[click\\](https://evil.example)\n\\# heading', inline: false },
    ]);
    expect(embed.footer).toEqual({ text: `${sent.json.id} · from a browser` });
  });
});

describe('kind', () => {
  it('is one of webhook, slack and discord', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    const res = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: receiver.url, kind: 'teams' } });
    expect(res.status).toBe(400);
    expect(res.json.error.details[0].path).toBe('kind');
  });
});
