/**
 * Issue 41: a form notifies up to 5 addresses, each verified on its own; the notification has
 * `Reply-To` the submitter, the form's name in its subject and a link to the submission. Sent to a
 * real SMTP server.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '@lfk/server/testing';
import {
  address,
  createKeyForm,
  emailsTo,
  expectLinkGone,
  keyOwner,
  linkIn,
  masked,
  openAndVerify,
  outboxTo,
  useServerWithSmtpPeer,
  waitForEmails,
} from './fixtures.ts';

describe('a form notifying several addresses', () => {
  const { t, peer } = useServerWithSmtpPeer({ LFK_VERIFY_RESEND_INTERVAL: '0' });
  const schema = [
    { name: 'name', type: 'text', required: true },
    { name: 'email', type: 'email', required: true },
    { name: 'message', type: 'textarea' },
  ];
  const submit = (formId: string, key: string, body: Record<string, unknown>) => t.request('POST', `/v1/forms/${formId}/submissions`, { token: key, body });
  const read = async (formId: string, key: string) => (await t.request('GET', `/v1/forms/${formId}`, { token: key })).json;

  it('verifies each address on its own, and emails each verified one: Reply-To the submitter, the form named, the submission linked', async () => {
    const owner = await keyOwner(t);
    const [sales, support] = [address('sales'), address('support')];
    // The owner's own address is verified (as a member's) at once; the others are each sent a link.
    const form = await createKeyForm(t, owner.key, { name: 'Quotes', schema, notify_emails: [sales, support, owner.email] });
    expect(form).toMatchObject({
      notify_email: sales,
      notify_email_verified: false,
      notify_emails: [sales, support, owner.email],
      verified_notify_emails: [owner.email],
      notified_addresses: [owner.email],
      notifications_to: owner.email,
    });
    const [salesLink] = await waitForEmails(peer, sales);
    await waitForEmails(peer, support);
    expect((await openAndVerify(t, linkIn(salesLink!.text))).status).toBe(200);
    expect(await read(form.id, owner.key)).toMatchObject({
      verified_notify_emails: [sales, owner.email],
      notified_addresses: [sales, owner.email],
      notify_email_verified: true,
    });

    const sent = await submit(form.id, owner.key, { name: 'Ada', email: 'ada@example.org', message: 'A quote, please.' });
    expect(sent.status).toBe(201);
    const [toSales] = (await waitForEmails(peer, sales, 2)).slice(1);
    const [toOwner] = await waitForEmails(peer, owner.email);
    for (const email of [toSales!, toOwner!]) {
      expect(email.subject).toBe('New submission to "Quotes"');
      expect(email.headers.get('reply-to')).toBe('ada@example.org');
      expect(email.text).toContain(`http://lfk.test/w/${owner.workspaceId}/forms/${form.id}/submissions/${sent.json.id}`);
      expect(email.text).toContain('A quote, please.');
    }
    // One email each, addressed to that address alone.
    expect(toSales!.envelopeTo).toEqual([sales]);
    expect(toOwner!.envelopeTo).toEqual([owner.email]);
    // The address not verified gets its link, and no submission.
    expect((await outboxTo(t, support)).map((row) => row.kind)).toEqual(['verification']);
  });

  it('takes at most 5, counts the same address once, and refuses notify_email with notify_emails', async () => {
    const { key } = await keyOwner(t);
    const six = Array.from({ length: 6 }, (_, i) => address(`six${i}`));
    const tooMany = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Six', schema, notify_emails: six } });
    expectError(tooMany, 400, 'invalid_request');
    expect(tooMany.json.error.details).toEqual([{ path: 'notify_emails', message: 'At most 5 addresses.' }]);
    const one = address('twice');
    const twice = await createKeyForm(t, key, { schema, notify_emails: [one, one.toUpperCase()] });
    expect(twice.notify_emails).toEqual([one]);
    const both = await t.request('PATCH', `/v1/forms/${twice.id}`, { token: key, body: { notify_email: one, notify_emails: [one] } });
    expectError(both, 400, 'invalid_request');
    expect(both.json.error.details).toEqual([{ path: 'notify_emails', message: 'Give notify_emails or notify_email, not both.' }]);
    const bad = await t.request('PATCH', `/v1/forms/${twice.id}`, { token: key, body: { notify_emails: ['ada@example.org\r\nBcc: all@example.org'] } });
    expectError(bad, 400, 'invalid_request');
    expect(bad.json.error.details[0].path).toBe('notify_emails.0');
  });

  it('a changed list keeps notifying the addresses verified before until one of it is verified; a removed address’s link no longer verifies', async () => {
    const { key } = await keyOwner(t);
    const [first, next, dropped] = [address('first'), address('next'), address('dropped')];
    const form = await createKeyForm(t, key, { schema, notify_emails: [first, dropped] });
    const [firstLink] = await waitForEmails(peer, first);
    const [droppedLink] = await waitForEmails(peer, dropped);
    expect((await openAndVerify(t, linkIn(firstLink!.text))).status).toBe(200);

    const changed = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_emails: [next] } });
    expect(changed.status, changed.body).toBe(200);
    expect(changed.json).toMatchObject({ notify_emails: [next], verified_notify_emails: [], notified_addresses: [first], notifications_to: first });
    await expectLinkGone(t, linkIn(droppedLink!.text).path);
    expect((await submit(form.id, key, { name: 'Meanwhile', email: 'm@example.org' })).status).toBe(201);
    const [, meanwhile] = await waitForEmails(peer, first, 2);
    expect(meanwhile!.text).toContain('Meanwhile');

    // Going back to the address kept meanwhile needs no new link; the one waiting keeps its link.
    const back = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_emails: [next, first] } });
    expect(back.json).toMatchObject({ verified_notify_emails: [first], notified_addresses: [first] });
    const [nextLink] = await waitForEmails(peer, next);
    expect((await openAndVerify(t, linkIn(nextLink!.text))).status).toBe(200);
    expect(await read(form.id, key)).toMatchObject({ verified_notify_emails: [next, first], notified_addresses: [next, first] });
    expect(emailsTo(peer, first)).toHaveLength(2);
    expect(emailsTo(peer, next)).toHaveLength(1);
  });

  it('resending sends a new link to each address not verified yet', async () => {
    const owner = await keyOwner(t);
    const [a, b] = [address('resend-a'), address('resend-b')];
    const form = await createKeyForm(t, owner.key, { schema, notify_emails: [a, owner.email, b] });
    await waitForEmails(peer, a);
    await waitForEmails(peer, b);
    const resent = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: owner.key });
    expect(resent.status).toBe(202);
    expect(resent.json).toEqual({ sent_to: masked(a), sent_to_all: [masked(a), masked(b)] });
    await waitForEmails(peer, a, 2);
    await waitForEmails(peer, b, 2);
    expect(emailsTo(peer, owner.email)).toHaveLength(0);
  });

  it('a form without an email field sends its notification with no Reply-To', async () => {
    const owner = await keyOwner(t);
    const form = await createKeyForm(t, owner.key, { name: 'Votes', schema: [{ name: 'vote', type: 'text' }], notify_email: owner.email });
    expect((await submit(form.id, owner.key, { vote: 'yes' })).status).toBe(201);
    const [email] = await waitForEmails(peer, owner.email);
    expect(email!.subject).toBe('New submission to "Votes"');
    expect(email!.headers.has('reply-to')).toBe(false);
  });
});
