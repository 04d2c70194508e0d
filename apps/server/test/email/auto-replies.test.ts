/**
 * Issue 41: a form's auto-reply to the person who submitted, sent to a real SMTP server: the
 * owner's words with the values filled in (escaped in the HTML), Reply-To the owner, who sent it
 * and why, and a stop link; never for spam; limited per address across lfk and per form; an
 * address that stopped a workspace's replies gets none, and each reply not sent is counted.
 */
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { expectError, submitMultipart, until } from '@lfk/server/testing';
import { address, emailsTo, keyOwner, outboxTo, useServerWithSmtpPeer, waitForEmails } from './fixtures.ts';

const schema = [
  { name: 'name', type: 'text', required: true },
  { name: 'email', type: 'email', required: true },
  { name: 'message', type: 'textarea' },
];
const autoReply = { email_field: 'email', subject: 'Thanks, {name}', text: 'Hello {name},\n\nWe got your message:\n{message}\n\nThe team' };

describe('auto-replies', () => {
  const { t, peer } = useServerWithSmtpPeer({
    LFK_RATE_LIMIT_AUTO_REPLY_RECIPIENTS: '3/1h',
    LFK_RATE_LIMIT_AUTO_REPLY_FORMS: '6/1h',
    LFK_METRICS: 'true',
  });

  async function formWithAutoReply(extra: Record<string, unknown> = {}) {
    const owner = await keyOwner(t);
    const res = await t.request('POST', '/v1/forms', {
      token: owner.key,
      // No content filter: these submissions carry hostile HTML on purpose, which it would send to spam (and so send no reply).
      body: { name: 'Quotes', schema, notify_email: owner.email, auto_reply: autoReply, spam_filter: { enabled: false }, ...extra },
    });
    expect(res.status, res.body).toBe(201);
    const [workspace] = await t.sql<{ name: string }>('select name from workspaces where id = ?', [owner.workspaceId]);
    return { owner: { ...owner, workspaceName: workspace!.name }, form: res.json };
  }
  const submit = (formId: string, key: string, body: Record<string, unknown>) => t.request('POST', `/v1/forms/${formId}/submissions`, { token: key, body });
  const skipped = async (formId: string, key: string) => (await t.request('GET', `/v1/forms/${formId}`, { token: key })).json.auto_replies_skipped;

  it('answers the address given, in the owner’s words, Reply-To the owner, saying who and why, with a one-click stop link', async () => {
    const { owner, form } = await formWithAutoReply();
    expect(form.auto_reply).toEqual({ enabled: true, ...autoReply });
    expect(form.auto_replies_skipped).toBe(0);
    const to = address('ada');
    const sent = await submit(form.id, owner.key, { name: 'Ada <b>', email: to, message: 'Quote for <img src=x onerror=alert(1)> & more' });
    expect(sent.status).toBe(201);
    const [reply] = await waitForEmails(peer, to);
    expect(reply!.envelopeTo).toEqual([to]);
    expect(reply!.subject).toBe('Thanks, Ada <b>');
    expect(reply!.headers.get('reply-to')).toBe(owner.email);
    expect(reply!.headers.get('auto-submitted')).toBe('auto-replied');
    expect(reply!.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const stop = /^<(http:\/\/lfk\.test\/v1\/auto-reply-stops\/(lfu_[\w-]+\.[\w-]+))>$/.exec(reply!.headers.get('list-unsubscribe') ?? '');
    expect(stop).not.toBeNull();
    expect(reply!.text).toContain('Hello Ada <b>,\n\nWe got your message:\nQuote for <img src=x onerror=alert(1)> & more\n\nThe team\n');
    expect(reply!.text).toContain(`This is an automatic reply from ${owner.workspaceName}: ${to} was entered in their form "Quotes".`);
    expect(reply!.text).toContain(stop![1]);
    // The HTML says the same, every value escaped: nothing the person typed is markup.
    expect(reply!.html).toContain('<p>Hello Ada &lt;b&gt;,</p>');
    expect(reply!.html).toContain('Quote for &lt;img src=x onerror=alert(1)&gt; &amp; more');
    expect(reply!.html).not.toContain('<img');
    // The owner's notification goes too, Reply-To the person.
    const [notification] = await waitForEmails(peer, owner.email);
    expect(notification!.headers.get('reply-to')).toBe(to);
    // Sent, its row keeps neither body nor link.
    const rows = await until('the auto-reply marked sent', async () => {
      const found = await t.sql<{ status: string; body: string | null; html: string | null; list_unsubscribe: string | null }>(
        'select status, body, html, list_unsubscribe from outbox_emails where "to" = ?',
        [to],
      );
      return found[0]?.status === 'sent' ? found : undefined;
    });
    expect(rows).toEqual([{ status: 'sent', body: null, html: null, list_unsubscribe: null }]);
  });

  it('previews what a submission would send, built as the real emails are', async () => {
    const { owner, form } = await formWithAutoReply();
    const previews = await t.request('GET', `/v1/forms/${form.id}/email-previews`, { token: owner.key });
    expect(previews.status).toBe(200);
    expect(previews.json.notification).toMatchObject({
      to: owner.email,
      reply_to: 'someone@example.com',
      subject: 'New submission to "Quotes"',
      html: null,
      list_unsubscribe: null,
    });
    expect(previews.json.notification.text).toContain('email: someone@example.com');
    expect(previews.json.auto_reply).toMatchObject({ to: 'someone@example.com', reply_to: owner.email, subject: 'Thanks, name' });
    expect(previews.json.auto_reply.text).toContain('Hello name,\n\nWe got your message:\nA few lines of text,\nas a person writes them.');
    expect(previews.json.auto_reply.list_unsubscribe).toMatch(/^http:\/\/lfk\.test\/v1\/auto-reply-stops\/lfu_/);
    // Nothing was sent or queued to preview them.
    expect(await t.count("outbox_emails where kind = 'auto_reply' and \"to\" = 'someone@example.com'")).toBe(0);
  });

  it('the stop link’s page changes nothing; its button (or one click) stops the workspace’s replies to that address, counted as skipped', async () => {
    const { owner, form } = await formWithAutoReply();
    const to = address('stopper');
    expect((await submit(form.id, owner.key, { name: 'Grace', email: to })).status).toBe(201);
    const [reply] = await waitForEmails(peer, to);
    const link = /<http:\/\/lfk\.test(\/v1\/auto-reply-stops\/[^>]+)>/.exec(reply!.headers.get('list-unsubscribe')!)![1]!;
    // The same link with its MAC changed by one character, or naming another address, stops nothing.
    const forged = link.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect((await t.request('POST', forged, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
    const [payload, mac] = link.split('/').at(-1)!.slice('lfu_'.length).split('.');
    const [workspaceId] = Buffer.from(payload!, 'base64url').toString().split('\n');
    const otherAddress = Buffer.from(`${workspaceId}\nsomeone-else@example.com`).toString('base64url');
    expect((await t.request('GET', `/v1/auto-reply-stops/lfu_${otherAddress}.${mac}`)).status).toBe(404);
    const page = await t.request('GET', link);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`Send no more automatic replies from the forms of ${owner.workspaceName} to ${to}?`);
    expect(await t.count('auto_reply_stops where email = ?', [to])).toBe(0);
    // A mail program's one-click post (RFC 8058).
    const oneClick = await t.request('POST', link, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(oneClick.status).toBe(200);
    expect(oneClick.body).toContain('Automatic replies stopped');
    expect((await t.request('POST', link, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200);
    expect(await t.count('auto_reply_stops where email = ?', [to])).toBe(1);

    // Another form of the workspace: no reply to that address (in another case too), but the submission is kept and notified.
    const other = await t.request('POST', '/v1/forms', { token: owner.key, body: { name: 'Other', schema, auto_reply: autoReply } });
    expect((await submit(other.json.id, owner.key, { name: 'Grace', email: to.toUpperCase() })).status).toBe(201);
    expect(await skipped(other.json.id, owner.key)).toBe(1);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.body).toMatch(/lfk_auto_replies_skipped_total\{reason="stopped"\} [1-9]/);
    expect(await t.count('outbox_emails where kind = \'auto_reply\' and lower("to") = ?', [to])).toBe(1);
  });

  it('a link lfk did not make is a 404 page', async () => {
    for (const token of ['lfu_nothing', 'lfu_d3NfMDAwMAphQGV4YW1wbGUuY29t.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', `lfu_${'x'.repeat(2000)}`]) {
      for (const method of ['GET', 'POST']) {
        const res = await t.request(
          method,
          `/v1/auto-reply-stops/${token}`,
          method === 'POST' ? { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {},
        );
        expect(res.status, `${method} ${token.slice(0, 30)}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
    }
  });

  it('a burst naming one address sends it 3 (its share across lfk), and counts the rest as skipped; the form has its own share', async () => {
    const { owner, form } = await formWithAutoReply();
    const victim = address('victim');
    const burst = await Promise.all(Array.from({ length: 20 }, () => submit(form.id, owner.key, { name: 'Spam', email: victim })));
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(201));
    await waitForEmails(peer, victim, 3);
    expect(await skipped(form.id, owner.key)).toBe(17);
    // Another workspace's form cannot reach that address either: the share is lfk's.
    const elsewhere = await formWithAutoReply();
    expect((await submit(elsewhere.form.id, elsewhere.owner.key, { name: 'Spam', email: victim })).status).toBe(201);
    expect(await skipped(elsewhere.form.id, elsewhere.owner.key)).toBe(1);
    // The form's own share (6 an hour): three new addresses fill it, as the victim's three did.
    const others = [address('p1'), address('p2'), address('p3'), address('p4')];
    for (const to of others) expect((await submit(form.id, owner.key, { name: 'Person', email: to })).status).toBe(201);
    await waitForEmails(peer, others[2]!);
    expect(await skipped(form.id, owner.key)).toBe(18);
    expect(await t.count('outbox_emails where kind = \'auto_reply\' and "to" = ?', [others[3]!])).toBe(0);
    const metrics = (await t.request('GET', '/metrics')).body;
    expect(metrics).toMatch(/lfk_auto_replies_skipped_total\{reason="recipient_limit"\} (1[89]|[2-9]\d)/);
    expect(metrics).toMatch(/lfk_auto_replies_skipped_total\{reason="form_limit"\} [1-9]/);
  });

  it('a visitor’s literal encoded word in a placeholder reaches the subject as typed: a mail program reads it, not what it would decode to', async () => {
    const { owner, form } = await formWithAutoReply();
    const to = address('encoded');
    // "=?utf-8?b?…?=" of "Winner\r\nBcc: x": a mail program that decoded it would show text (and a line break) nobody typed.
    const typed = `=?utf-8?b?${Buffer.from('Winner\r\nBcc: x').toString('base64')}?= and =?utf-8?q?caf=C3=A9?=`;
    expect((await submit(form.id, owner.key, { name: typed, email: to })).status).toBe(201);
    const [reply] = await waitForEmails(peer, to);
    // mailparser reads the message as a mail program does.
    const parsed = await simpleParser(reply!.raw);
    expect(parsed.subject).toBe(`Thanks, ${typed}`);
  });

  it('a file field’s placeholder names the files sent', async () => {
    const owner = await keyOwner(t);
    const created = await t.request('POST', '/v1/forms', {
      token: owner.key,
      body: {
        name: 'Files',
        schema: [...schema, { name: 'attachment', type: 'file', multiple: true }],
        auto_reply: { email_field: 'email', subject: 'Got {attachment}', text: 'Files: {attachment}' },
      },
    });
    expect(created.status, created.body).toBe(201);
    const to = address('files');
    const sent = await submitMultipart(
      t,
      created.json.id,
      [
        { name: 'name', value: 'Ada' },
        { name: 'email', value: to },
        { name: 'attachment', file: 'one', filename: 'invoice.pdf', type: 'application/pdf' },
        { name: 'attachment', file: 'two', filename: 'photo.png', type: 'image/png' },
      ],
      { token: owner.key },
    );
    expect(sent.status, sent.body).toBe(201);
    const [reply] = await waitForEmails(peer, to);
    expect(reply!.subject).toBe('Got invoice.pdf, photo.png');
    expect(reply!.text).toContain('Files: invoice.pdf, photo.png\n');
  });

  it('an address field holding several addresses, or a header, refuses the submission: no reply goes to anyone', async () => {
    const { owner, form } = await formWithAutoReply();
    for (const email of ['a@example.com, b@example.com', 'a@example.com\r\nBcc: everyone@example.com', 'a@example.com;b@example.com', '<a@example.com>']) {
      const res = await submit(form.id, owner.key, { name: 'Mallory', email });
      expect(res.status, email).toBe(422);
      expect(
        res.json.error.details.map((d: { path: string }) => d.path),
        email,
      ).toEqual(['email']);
    }
    expect(await t.count("outbox_emails where \"to\" in ('a@example.com', 'b@example.com', 'everyone@example.com')")).toBe(0);
    expect(await skipped(form.id, owner.key)).toBe(0);
  });

  it('never answers spam, nor a submission without an address, nor while turned off', async () => {
    const { owner, form } = await formWithAutoReply({
      spam: { honeypot: '_gotcha' },
      schema: [...schema.slice(0, 1), { ...schema[1]!, required: false }, schema[2]!],
    });
    const spammed = address('spam');
    expect((await submit(form.id, owner.key, { name: 'Bot', email: spammed, _gotcha: 'filled' })).status).toBe(201);
    expect((await submit(form.id, owner.key, { name: 'No address' })).status).toBe(201);
    const off = await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.key, body: { auto_reply: { enabled: false } } });
    expect(off.json.auto_reply).toEqual({ ...autoReply, enabled: false });
    const whileOff = address('off');
    expect((await submit(form.id, owner.key, { name: 'Later', email: whileOff })).status).toBe(201);
    // The owner's notifications of the two real ones are the proof that the writes are done.
    await waitForEmails(peer, owner.email, 2);
    expect(await t.count('outbox_emails where kind = \'auto_reply\' and "to" in (?, ?)', [spammed, whileOff])).toBe(0);
    expect(await skipped(form.id, owner.key)).toBe(0);
    expect(emailsTo(peer, spammed)).toEqual([]);
    expect((await outboxTo(t, whileOff)).length).toBe(0);
  });
});

describe('setting an auto-reply', () => {
  const { t } = useServerWithSmtpPeer();
  const create = (key: string, body: Record<string, unknown>) => t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema, ...body } });

  it('refuses what would mail anyone but the person who submitted, or could not be filled in', async () => {
    const { key } = await keyOwner(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { ...autoReply, email_field: 'name' },
        'auto_reply.email_field',
        'Must name one of the form’s email fields: the auto-reply goes to the address given there.',
      ],
      [
        { ...autoReply, email_field: 'missing' },
        'auto_reply.email_field',
        'Must name one of the form’s email fields: the auto-reply goes to the address given there.',
      ],
      [{ ...autoReply, text: 'Hi {nobody}' }, 'auto_reply.text', '{nobody} names no field of the form.'],
      [{ ...autoReply, subject: 'Re: {phone}' }, 'auto_reply.subject', '{phone} names no field of the form.'],
      [{ ...autoReply, text: '{name}'.repeat(51) }, 'auto_reply.text', 'At most 50 placeholders in the subject and the text together.'],
      [{ ...autoReply, subject: 'Thanks\r\nBcc: all@example.org' }, 'auto_reply.subject', 'Must not contain control characters or line breaks.'],
      [{ ...autoReply, text: 'x'.repeat(5001) }, 'auto_reply.text', 'Must be at most 5000 characters.'],
      [{ email_field: 'email', text: 'Hi' }, 'auto_reply.subject', 'Required to set an auto-reply.'],
    ];
    for (const [autoReplyBody, path, message] of cases) {
      const res = await create(key, { auto_reply: autoReplyBody });
      expectError(res, 400, 'invalid_request');
      expect(res.json.error.details, path).toEqual([{ path, message }]);
    }
    // A template of 1 MB is refused before it is read as one.
    const huge = await create(key, { auto_reply: { ...autoReply, text: 'x'.repeat(1024 * 1024) } });
    expect([400, 413]).toContain(huge.status);
    expect(await t.count("forms where name = 'F'")).toBe(0);
  });

  it('keeps the form’s fields and its auto-reply in step: removing the field it answers is refused until the reply changes', async () => {
    const { key } = await keyOwner(t);
    const created = await create(key, { auto_reply: autoReply });
    const withoutEmail = await t.request('PATCH', `/v1/forms/${created.json.id}`, { token: key, body: { schema: [schema[0], schema[2]] } });
    expectError(withoutEmail, 400, 'invalid_request');
    expect(withoutEmail.json.error.details[0].path).toBe('auto_reply.email_field');
    const both = await t.request('PATCH', `/v1/forms/${created.json.id}`, { token: key, body: { schema: [schema[0], schema[2]], auto_reply: null } });
    expect(both.status, both.body).toBe(200);
    expect(both.json.auto_reply).toBeNull();
  });

  it('is not for a form made without credentials: its replies would name no one', async () => {
    const res = await t.request('POST', '/v1/forms', { body: { name: 'Anon', schema, notify_email: address('anon'), auto_reply: autoReply } });
    expectError(res, 400, 'invalid_request');
    expect(res.json.error.details[0].path).toBe('auto_reply');
  });
});
