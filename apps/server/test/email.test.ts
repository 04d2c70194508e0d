import { createHash, randomBytes } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Res, startTestServer, type TestServer, until } from '@lfk/testing';

// ---------------------------------------------------------------------------------------------
// An in-process SMTP peer, and a plain parser for what it receives.
// ---------------------------------------------------------------------------------------------

interface ReceivedEmail {
  envelopeFrom: string | null;
  envelopeTo: string[];
  /** Lower-cased header names; values unfolded, encoded words decoded. */
  headers: Map<string, string>;
  subject: string;
  /** The decoded body, with `\n` line ends. */
  text: string;
  raw: string;
}

interface HeldMessage {
  to: string[];
  /** Answers the held DATA: accepted (250) or refused (451, try later). */
  settle(accept: boolean): void;
}

interface SmtpPeer {
  url: string;
  /** Messages accepted (answered 250), in order of arrival. */
  received: ReceivedEmail[];
  /** The recipients of each message refused with a 451. */
  rejected: string[][];
  /** Messages whose answer waits for the test (decision `hold`). */
  held: HeldMessage[];
  /** What to answer a message to these recipients; accept when unset. */
  decide: ((to: string[]) => 'accept' | 'reject' | 'hold') | null;
  close(): Promise<void>;
}

/** Decodes a run of RFC 2047 encoded words (`=?UTF-8?Q?...?=` / `=?UTF-8?B?...?=`). */
function decodeEncodedWords(value: string): string {
  const joined = value.replace(/\?=\s+=\?/g, '?==?');
  return joined.replace(/(?:=\?[^?]+\?[BbQq]\?[^?]*\?=)+/g, (run) => {
    const parts: Buffer[] = [];
    for (const [, , encoding, payload] of run.matchAll(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g)) {
      if (encoding!.toUpperCase() === 'B') parts.push(Buffer.from(payload!, 'base64'));
      else {
        const latin = payload!.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
        parts.push(Buffer.from(latin, 'latin1'));
      }
    }
    return Buffer.concat(parts).toString('utf8');
  });
}

function decodeQuotedPrintable(body: string): string {
  const latin = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(latin, 'latin1').toString('utf8');
}

function parseMessage(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  let text: string;
  if (encoding === 'quoted-printable') text = decodeQuotedPrintable(body);
  else if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else text = body;
  return { headers, text: text.replace(/\r\n/g, '\n') };
}

async function startSmtpPeer(): Promise<SmtpPeer> {
  const peer: SmtpPeer = {
    url: '',
    received: [],
    rejected: [],
    held: [],
    decide: null,
    close: async () => {},
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const settle = (accept: boolean) => {
          if (!accept) {
            peer.rejected.push(to);
            callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          const { headers, text } = parseMessage(raw);
          peer.received.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            envelopeTo: to,
            headers,
            subject: headers.get('subject') ?? '',
            text,
            raw,
          });
          callback();
        };
        const decision = peer.decide?.(to) ?? 'accept';
        if (decision === 'hold') peer.held.push({ to, settle });
        else settle(decision === 'accept');
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('smtp peer has no port');
  peer.url = `smtp://127.0.0.1:${address.port}`;
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return peer;
}

/** Waits for the next message to `to` that the peer holds, and takes it off the held list. */
async function nextHeld(peer: SmtpPeer, to: string): Promise<HeldMessage> {
  const held = await until(`a delivery attempt to ${to}`, () => peer.held.find((h) => h.to.includes(to)));
  peer.held.splice(peer.held.indexOf(held), 1);
  return held;
}

// ---------------------------------------------------------------------------------------------
// Small helpers.
// ---------------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const emailsTo = (peer: SmtpPeer, address: string) => peer.received.filter((m) => m.envelopeTo.includes(address));

/** Waits until `address` has received at least `count` emails; returns all of them, oldest first. */
function waitForEmails(peer: SmtpPeer, address: string, count = 1): Promise<ReceivedEmail[]> {
  return until(`${count} email(s) to ${address}`, () => {
    const found = emailsTo(peer, address);
    return found.length >= count ? found : undefined;
  });
}

const LINK = /http:\/\/lfk\.test(\/v1\/email-verifications\/(lfv_[0-9A-Za-z]+))/;

/** The verification link of an email body: the path to request, and its token. */
function linkIn(text: string): { path: string; token: string } {
  const match = LINK.exec(text);
  if (!match) throw new Error(`no verification link in:\n${text}`);
  expect(match[2]).toMatch(/^lfv_[0-9A-Za-z]{43}$/);
  return { path: match[1]!, token: match[2]! };
}

const address = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
const masked = (to: string) => `${to[0]}***@${to.split('@')[1]}`;

interface OutboxRow {
  id: string;
  kind: string;
  to: string;
  subject: string;
  body: string | null;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: unknown;
}

function outboxTo(t: TestServer, to: string): Promise<OutboxRow[]> {
  return t.sql<OutboxRow>(
    'select id, kind, "to", subject, body, status, attempts, last_error, sent_at from outbox_emails where "to" = ? order by created_at, id',
    [to],
  );
}

async function isVerified(t: TestServer, formId: string): Promise<boolean> {
  const rows = await t.sql<{ notify_email_verified: boolean }>('select notify_email_verified from forms where id = ?', [formId]);
  return rows[0]!.notify_email_verified;
}

const EMAIL_FROM = 'LFK Forms <forms@lfk.test>';

async function keyOwner(t: TestServer) {
  const owner = await t.signup();
  const { key } = await t.createKey(owner.token, owner.workspaceId);
  return { ...owner, key };
}

async function createKeyForm(t: TestServer, key: string, body: Record<string, unknown>) {
  const res = await t.request('POST', '/v1/forms', {
    token: key,
    body: { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }], ...body },
  });
  expect(res.status).toBe(201);
  return res.json;
}

function expectHtml(res: { headers: Record<string, unknown> }) {
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
}

async function linkUsed(t: TestServer, token: string): Promise<boolean> {
  const hash = createHash('sha256').update(token).digest('hex');
  const rows = await t.sql<{ used_at: unknown }>('select used_at from email_verifications where token_hash = ?', [hash]);
  return rows[0]!.used_at !== null;
}

/**
 * Follows a link as a person does: opening it shows a page with a "Verify" button and changes
 * nothing (mail scanners open links too); the button's form post is what verifies.
 */
async function openAndVerify(t: TestServer, link: { path: string; token: string }): Promise<Res> {
  const page = await t.request('GET', link.path);
  expect(page.status).toBe(200);
  expectHtml(page);
  expect(page.body).toContain('<button type="submit">Verify</button>');
  expect(await linkUsed(t, link.token)).toBe(false);
  return t.request('POST', link.path, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } });
}

// ---------------------------------------------------------------------------------------------

describe('verification emails by SMTP', () => {
  let t: TestServer;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await startTestServer({ SMTP_URL: peer.url, LFK_EMAIL_FROM: EMAIL_FROM }, { outbox: { pollMs: 50 } });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  it('an anonymous form sends a verification email; its link verifies once, then answers a 404 page', async () => {
    const to = address('anon');
    const created = await t.request('POST', '/v1/forms', {
      body: { name: 'Newsletter signup', schema: [{ name: 'email', type: 'email', required: true }], notify_email: to },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ state: 'unclaimed', notify_email: to, notify_email_verified: false });

    const [email] = await waitForEmails(peer, to);
    expect(email!.envelopeTo).toEqual([to]);
    expect(email!.envelopeFrom).toBe('forms@lfk.test');
    expect(email!.headers.get('from')).toBe(EMAIL_FROM);
    expect(email!.headers.get('to')).toBe(to);
    expect(email!.subject).toContain('Newsletter signup');
    const link = linkIn(email!.text);
    expect(await isVerified(t, created.json.id)).toBe(false);

    const followed = await openAndVerify(t, link);
    expect(followed.status).toBe(200);
    expectHtml(followed);
    expect(followed.body).toContain(to);

    // Claimed into a workspace, the form shows its address verified.
    const owner = await t.signup();
    const claimed = await t.request('POST', `/v1/forms/${created.json.id}/claim`, {
      token: owner.token,
      body: { claim_token: created.json.claim_token, workspace_id: owner.workspaceId },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.json).toMatchObject({ notify_email: to, notify_email_verified: true, state: 'claimed' });
    const read = await t.request('GET', `/v1/forms/${created.json.id}`, { token: owner.token });
    expect(read.json.notify_email_verified).toBe(true);

    for (const method of ['GET', 'POST']) {
      const again = await t.request(method, link.path);
      expect(again.status).toBe(404);
      expectHtml(again);
      expect(again.body).not.toContain('"error"');
    }
    expect(emailsTo(peer, to)).toHaveLength(1);
  });

  it('unknown and malformed verification links answer a 404 page', async () => {
    for (const token of [`lfv_${'A'.repeat(43)}`, 'lfv_short', 'not-a-token']) {
      const res = await t.request('GET', `/v1/email-verifications/${token}`);
      expect(res.status).toBe(404);
      expectHtml(res);
    }
  });

  it('a key-created form sends a verification email; resending inside the interval is 429 with Retry-After', async () => {
    const { key } = await keyOwner(t);
    const to = address('keyform');
    const form = await createKeyForm(t, key, { name: 'Quote request', notify_email: to });
    expect(form).toMatchObject({ state: 'claimed', notify_email: to, notify_email_verified: false });
    const [email] = await waitForEmails(peer, to);
    expect(email!.subject).toContain('Quote request');
    linkIn(email!.text);

    const resend = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: key });
    expect(resend.status).toBe(429);
    expect(resend.json.error.code).toBe('rate_limited');
    const retryAfter = String(resend.headers['retry-after']);
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Nothing more was queued.
    expect(await outboxTo(t, to)).toHaveLength(1);
  });

  it('resending is refused with 409 once verified, and for a form without notify_email', async () => {
    const { key } = await keyOwner(t);
    const to = address('done');
    const form = await createKeyForm(t, key, { notify_email: to });
    const [email] = await waitForEmails(peer, to);
    expect((await openAndVerify(t, linkIn(email!.text))).status).toBe(200);

    const verified = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: key });
    expect(verified.status).toBe(409);
    expect(verified.json.error.code).toBe('email_already_verified');

    const bare = await createKeyForm(t, key, {});
    const none = await t.request('POST', `/v1/forms/${bare.id}/resend-verification`, { token: key });
    expect(none.status).toBe(409);
    expect(none.json.error.code).toBe('no_notify_email');
    expect(await outboxTo(t, to)).toHaveLength(1);
  });

  it('PATCHing notify_email sends a verification to the new address; the old unused link no longer verifies', async () => {
    const { key } = await keyOwner(t);
    const before = address('before');
    const after = address('after');
    const form = await createKeyForm(t, key, { name: 'Moving form', notify_email: before });
    const [first] = await waitForEmails(peer, before);
    const oldLink = linkIn(first!.text);

    const patched = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_email: after } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ notify_email: after, notify_email_verified: false });
    const [second] = await waitForEmails(peer, after);
    expect(second!.subject).toContain('Moving form');
    const newLink = linkIn(second!.text);
    expect(newLink.token).not.toBe(oldLink.token);

    for (const method of ['GET', 'POST']) {
      const old = await t.request(method, oldLink.path);
      expect(old.status).toBe(404);
      expectHtml(old);
    }
    expect(await isVerified(t, form.id)).toBe(false);

    expect((await openAndVerify(t, newLink)).status).toBe(200);
    const read = await t.request('GET', `/v1/forms/${form.id}`, { token: key });
    expect(read.json).toMatchObject({ notify_email: after, notify_email_verified: true });
    expect(emailsTo(peer, before)).toHaveLength(1);
  });

  it('PATCHing a verified address to another resets verification; null clears it without an email', async () => {
    const { key } = await keyOwner(t);
    const first = address('first');
    const second = address('second');
    const form = await createKeyForm(t, key, { notify_email: first });
    const [email] = await waitForEmails(peer, first);
    expect((await openAndVerify(t, linkIn(email!.text))).status).toBe(200);
    expect(await isVerified(t, form.id)).toBe(true);

    const moved = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_email: second } });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ notify_email: second, notify_email_verified: false });
    await waitForEmails(peer, second);

    const cleared = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { notify_email: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toMatchObject({ notify_email: null, notify_email_verified: false });
    expect(await outboxTo(t, second)).toHaveLength(1);
    expect(await outboxTo(t, first)).toHaveLength(1);
  });

  it('submissions send no email while notify_email is unverified, and one listing the values once verified', async () => {
    const { key } = await keyOwner(t);
    const to = address('notify');
    const formName = 'Café feedback ✉';
    const form = await createKeyForm(t, key, {
      name: formName,
      notify_email: to,
      schema: [
        { name: 'name', type: 'text', label: 'Your name', required: true },
        { name: 'message', type: 'textarea' },
        { name: 'subscribe', type: 'checkbox' },
        { name: 'rating', type: 'number' },
      ],
    });
    const [verification] = await waitForEmails(peer, to);
    expect(verification!.subject).toContain(formName);

    const early = await t.request('POST', `/v1/forms/${form.id}/submissions`, {
      token: key,
      body: { name: 'Before verification', message: 'too early' },
    });
    expect(early.status).toBe(201);
    expect((await outboxTo(t, to)).map((row) => row.kind)).toEqual(['verification']);

    expect((await openAndVerify(t, linkIn(verification!.text))).status).toBe(200);

    const name = 'Zoë Ærøskøbing 山田 🌍';
    const sent = await t.request('POST', `/v1/forms/${form.id}/submissions`, {
      token: key,
      body: { name, message: 'Line one\nLínea dos — ñ', subscribe: 'on', rating: '4.5' },
    });
    expect(sent.status).toBe(201);

    const emails = await waitForEmails(peer, to, 2);
    const notification = emails[1]!;
    expect(notification.subject).toContain(formName);
    expect(notification.headers.get('from')).toBe(EMAIL_FROM);
    expect(notification.text).toContain(`Your name: ${name}`);
    expect(notification.text).toContain('Line one');
    expect(notification.text).toContain('Línea dos — ñ');
    expect(notification.text).toContain('subscribe: true');
    expect(notification.text).toContain('rating: 4.5');
    expect(notification.text).toContain(sent.json.id);
    expect(notification.text).not.toContain('Before verification');

    const rows = await until('the submission email marked sent', async () => {
      const found = await outboxTo(t, to);
      return found.length === 2 && found[1]!.status === 'sent' ? found : undefined;
    });
    expect(rows.map((row) => row.kind)).toEqual(['verification', 'submission']);
    expect(rows[1]!.body).toBeNull();
    expect(emailsTo(peer, to)).toHaveLength(2);
  });

  it('a sent email leaves its outbox row sent with no body, and the verification token is stored only as a hash', async () => {
    const { key } = await keyOwner(t);
    const to = address('outbox');
    const form = await createKeyForm(t, key, { notify_email: to });
    const [email] = await waitForEmails(peer, to);
    const { token } = linkIn(email!.text);

    const rows = await until('the verification email marked sent', async () => {
      const found = await outboxTo(t, to);
      return found[0]?.status === 'sent' ? found : undefined;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'verification', to, status: 'sent', body: null, attempts: 1, last_error: null });
    expect(rows[0]!.sent_at).not.toBeNull();
    expect(email!.headers.get('x-lfk-email-id')).toBe(rows[0]!.id);

    const allOutbox = JSON.stringify(await t.sql('select * from outbox_emails'));
    expect(allOutbox).not.toContain(token);
    expect(allOutbox).not.toContain(token.slice(4));

    const links = await t.sql<{ token_hash: string; email: string }>('select * from email_verifications where form_id = ?', [form.id]);
    expect(links).toHaveLength(1);
    expect(links[0]!.email).toBe(to);
    expect(links[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const allLinks = JSON.stringify(await t.sql('select * from email_verifications'));
    expect(allLinks).not.toContain(token);
    expect(allLinks).not.toContain(token.slice(4));
  });
});

describe('a server with immediate resends and quick retries', () => {
  let t: TestServer;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await startTestServer(
      { SMTP_URL: peer.url, LFK_EMAIL_FROM: EMAIL_FROM, LFK_VERIFY_RESEND_INTERVAL: '0' },
      { outbox: { pollMs: 50, baseDelayMs: 100, maxDelayMs: 200, maxAttempts: 3 } },
    );
  });
  afterAll(async () => {
    // Nothing may stay held, or the sender would wait for it on close.
    peer.decide = null;
    for (const held of peer.held.splice(0)) held.settle(false);
    await t?.close();
    await peer?.close();
  });

  describe('resending with LFK_VERIFY_RESEND_INTERVAL=0', () => {
    it('resend answers 202 with the masked address and sends a new link that replaces the older one', async () => {
      const owner = await keyOwner(t);
      const to = address('resend');
      const form = await createKeyForm(t, owner.key, { name: 'Resent form', notify_email: to });
      const [first] = await waitForEmails(peer, to);
      const older = linkIn(first!.text);

      const resend = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: owner.key });
      expect(resend.status).toBe(202);
      expect(resend.json).toEqual({ sent_to: masked(to) });
      expect(resend.json.sent_to).toMatch(/^r\*\*\*@example\.com$/);

      const emails = await waitForEmails(peer, to, 2);
      expect(emails[1]!.subject).toContain('Resent form');
      const newer = linkIn(emails[1]!.text);
      expect(newer.token).not.toBe(older.token);

      for (const method of ['GET', 'POST']) {
        const stale = await t.request(method, older.path);
        expect(stale.status).toBe(404);
        expectHtml(stale);
      }
      expect(await isVerified(t, form.id)).toBe(false);

      const fresh = await openAndVerify(t, newer);
      expect(fresh.status).toBe(200);
      expectHtml(fresh);
      const read = await t.request('GET', `/v1/forms/${form.id}`, { token: owner.key });
      expect(read.json.notify_email_verified).toBe(true);

      const after = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: owner.key });
      expect(after.status).toBe(409);
      expect(after.json.error.code).toBe('email_already_verified');
      expect(emailsTo(peer, to)).toHaveLength(2);
    });

    it('a member session may resend too, and a form without notify_email is 409 no_notify_email', async () => {
      const owner = await keyOwner(t);
      const to = address('session');
      const form = await createKeyForm(t, owner.key, { notify_email: to });
      await waitForEmails(peer, to);
      const resend = await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: owner.token });
      expect(resend.status).toBe(202);
      expect(resend.json).toEqual({ sent_to: masked(to) });
      await waitForEmails(peer, to, 2);

      const bare = await createKeyForm(t, owner.key, {});
      const none = await t.request('POST', `/v1/forms/${bare.id}/resend-verification`, { token: owner.key });
      expect(none.status).toBe(409);
      expect(none.json.error.code).toBe('no_notify_email');
    });
  });

  describe('outbox retries (maxAttempts 3)', () => {
    it('a refused email stays pending with growing attempts and last_error, then is delivered exactly once', async () => {
      const { key } = await keyOwner(t);
      const to = address('flaky');
      peer.decide = (recipients) => (recipients.includes(to) ? 'hold' : 'accept');
      await createKeyForm(t, key, { notify_email: to });

      // Attempt 1 is in flight: nothing failed yet.
      let held = await nextHeld(peer, to);
      let [row] = await outboxTo(t, to);
      expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: null });
      held.settle(false);

      // Attempt 2: the first refusal is recorded, and the message is still pending.
      held = await nextHeld(peer, to);
      [row] = await outboxTo(t, to);
      expect(row).toMatchObject({ status: 'pending', attempts: 2 });
      expect(row!.last_error).toContain('try again later');
      expect(row!.body).not.toBeNull();
      held.settle(false);

      // Attempt 3 is accepted.
      held = await nextHeld(peer, to);
      [row] = await outboxTo(t, to);
      expect(row).toMatchObject({ status: 'pending', attempts: 3 });
      expect(row!.last_error).toContain('try again later');
      expect(emailsTo(peer, to)).toHaveLength(0);
      held.settle(true);

      const sent = await until('the email marked sent', async () => {
        const [found] = await outboxTo(t, to);
        return found?.status === 'sent' ? found : undefined;
      });
      expect(sent).toMatchObject({ attempts: 3, body: null, last_error: null });
      expect(sent.sent_at).not.toBeNull();
      expect(peer.rejected.filter((r) => r.includes(to))).toHaveLength(2);

      // A few more polls go by: nothing is attempted or sent again.
      await sleep(400);
      expect(peer.held.filter((h) => h.to.includes(to))).toHaveLength(0);
      const delivered = emailsTo(peer, to);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]!.headers.get('x-lfk-email-id')).toBe(sent.id);
      linkIn(delivered[0]!.text);
      const [final] = await outboxTo(t, to);
      expect(final).toMatchObject({ status: 'sent', attempts: 3 });
    });

    it('an email refused on every attempt is marked failed after maxAttempts, with its last error', async () => {
      const { key } = await keyOwner(t);
      const to = address('refused');
      peer.decide = (recipients) => (recipients.includes(to) ? 'reject' : 'accept');
      await createKeyForm(t, key, { notify_email: to });

      const failed = await until('the email marked failed', async () => {
        const [row] = await outboxTo(t, to);
        return row?.status === 'failed' ? row : undefined;
      });
      expect(failed.attempts).toBe(3);
      expect(failed.last_error).toContain('try again later');
      expect(failed.sent_at).toBeNull();

      // It is not tried again.
      await sleep(400);
      const [later] = await outboxTo(t, to);
      expect(later).toMatchObject({ status: 'failed', attempts: 3 });
      expect(peer.rejected.filter((r) => r.includes(to))).toHaveLength(3);
      expect(emailsTo(peer, to)).toHaveLength(0);
    });
  });
});

describe('without SMTP_URL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({}, { outbox: { pollMs: 50 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the email is printed to the log, link included, and the link works', async () => {
    const to = address('logged');
    const created = await t.request('POST', '/v1/forms', {
      body: { name: 'Local form', schema: [{ name: 'email', type: 'email' }], notify_email: to },
    });
    expect(created.status).toBe(201);

    const line = await until('the email in the log', () =>
      t.logs
        .map((raw) => {
          try {
            return JSON.parse(raw);
          } catch {
            return undefined;
          }
        })
        .find((entry) => entry?.email?.to === to),
    );
    expect(String(line.msg).startsWith('email to')).toBe(true);
    expect(line.email).toMatchObject({ kind: 'verification', to });
    expect(line.email.subject).toContain('Local form');
    const link = linkIn(line.email.text);

    const row = await until('the logged email marked sent', async () => {
      const [found] = await outboxTo(t, to);
      return found?.status === 'sent' ? found : undefined;
    });
    expect(row.body).toBeNull();
    expect(line.email.id).toBe(row.id);

    const followed = await openAndVerify(t, link);
    expect(followed.status).toBe(200);
    expect(await isVerified(t, created.json.id)).toBe(true);
  });
});
