/**
 * What the email files share: an in-process SMTP peer and a plain parser for what it receives, and
 * readers of the outbox, of verification links and of the pages they open.
 */
import { createHash, randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { OutboxSenderOptions } from '@lfk/server';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Res, type TestServer, until, useTestServer } from '@lfk/server/testing';

// ---------------------------------------------------------------------------------------------
// An in-process SMTP peer, and a plain parser for what it receives.
// ---------------------------------------------------------------------------------------------

export interface ReceivedEmail {
  envelopeFrom: string | null;
  envelopeTo: string[];
  /** Lower-cased header names; values unfolded, encoded words decoded. */
  headers: Map<string, string>;
  subject: string;
  /** The decoded body, with `\n` line ends. */
  text: string;
  /** The HTML alternative, when the message has one. */
  html: string | null;
  raw: string;
}

export interface HeldMessage {
  to: string[];
  /** Answers the held DATA: accepted (250) or refused (451, try later). */
  settle(accept: boolean): void;
}

export interface SmtpPeer {
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
export function decodeEncodedWords(value: string): string {
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

/**
 * The top-level headers of a raw message (lower-cased names, values unfolded, encoded words
 * decoded), and its bodies as a mail program reads them (mailparser: any transfer encoding, the
 * parts of a multipart message).
 */
export async function parseMessage(raw: string): Promise<{ headers: Map<string, string>; text: string; html: string | null }> {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  const parsed = await simpleParser(raw);
  return { headers, text: (parsed.text ?? '').replace(/\r\n/g, '\n'), html: parsed.html === false ? null : (parsed.html ?? null) };
}

/** An SMTP peer for the enclosing describe block: listening before its tests, closed after them. */
function useSmtpPeer(): SmtpPeer {
  const peer: SmtpPeer = {
    url: '',
    received: [],
    rejected: [],
    held: [],
    decide: null,
    close: async () => {},
  };
  beforeAll(() => listenFor(peer));
  afterAll(() => peer.close());
  return peer;
}

/** Listens on a free port, answering and recording each message as `peer` says. */
async function listenFor(peer: SmtpPeer): Promise<void> {
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
          parseMessage(raw).then(({ headers, text, html }) => {
            peer.received.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              envelopeTo: to,
              headers,
              subject: headers.get('subject') ?? '',
              text,
              html,
              raw,
            });
            callback();
          }, callback);
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
}

/**
 * An SMTP peer and a test server that sends to it from EMAIL_FROM, polling its outbox every 50 ms,
 * for the enclosing describe block. When the block ends, whatever the peer still holds is refused
 * before the server closes: its sender would wait for it.
 */
export function useServerWithSmtpPeer(env: Record<string, string> = {}, outbox: Partial<OutboxSenderOptions> = {}): { t: TestServer; peer: SmtpPeer } {
  const peer = useSmtpPeer();
  const t = useTestServer(() => ({ SMTP_URL: peer.url, LFK_EMAIL_FROM: EMAIL_FROM, ...env }), { outbox: { pollMs: 50, ...outbox } });
  afterAll(() => {
    peer.decide = null;
    for (const held of peer.held.splice(0)) held.settle(false);
  });
  return { t, peer };
}

/** Waits for the next message to `to` that the peer holds, and takes it off the held list. */
export async function nextHeld(peer: SmtpPeer, to: string): Promise<HeldMessage> {
  const held = await until(`a delivery attempt to ${to}`, () => peer.held.find((h) => h.to.includes(to)));
  peer.held.splice(peer.held.indexOf(held), 1);
  return held;
}

// ---------------------------------------------------------------------------------------------
// Small helpers.
// ---------------------------------------------------------------------------------------------

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const emailsTo = (peer: SmtpPeer, address: string) => peer.received.filter((m) => m.envelopeTo.includes(address));

/** Waits until `address` has received at least `count` emails; returns all of them, oldest first. */
export function waitForEmails(peer: SmtpPeer, address: string, count = 1): Promise<ReceivedEmail[]> {
  return until(`${count} email(s) to ${address}`, () => {
    const found = emailsTo(peer, address);
    return found.length >= count ? found : undefined;
  });
}

export const LINK = /http:\/\/lfk\.test(\/v1\/email-verifications\/(lfv_[0-9A-Za-z]+))/;

/** The verification link of an email body: the path to request, and its token. */
export function linkIn(text: string): { path: string; token: string } {
  const match = LINK.exec(text);
  if (!match) throw new Error(`no verification link in:\n${text}`);
  expect(match[2]).toMatch(/^lfv_[0-9A-Za-z]{43}$/);
  return { path: match[1]!, token: match[2]! };
}

export const address = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
export const masked = (to: string) => `${to[0]}***@${to.split('@')[1]}`;

export interface OutboxRow {
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

export function outboxTo(t: TestServer, to: string): Promise<OutboxRow[]> {
  return t.sql<OutboxRow>(
    'select id, kind, "to", subject, body, status, attempts, last_error, sent_at from outbox_emails where "to" = ? order by created_at, id',
    [to],
  );
}

export async function isVerified(t: TestServer, formId: string): Promise<boolean> {
  const rows = await t.sql<{ verified: boolean }>("select (notify_emails->0->>'verified')::boolean as verified from forms where id = ?", [formId]);
  return rows[0]!.verified;
}

export const EMAIL_FROM = 'LFK Forms <forms@lfk.test>';

export async function keyOwner(t: TestServer) {
  const { owner, key } = await t.signupWithKey();
  return { ...owner, key };
}

export async function createKeyForm(t: TestServer, key: string, body: Record<string, unknown>) {
  const res = await t.request('POST', '/v1/forms', {
    token: key,
    body: { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }], ...body },
  });
  expect(res.status).toBe(201);
  return res.json;
}

export function expectHtml(res: { headers: Record<string, unknown> }) {
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
}

/** A link that verifies no more: opening it and pressing its button both answer a 404 page, not a JSON error. */
export async function expectLinkGone(t: TestServer, path: string): Promise<void> {
  for (const method of ['GET', 'POST']) {
    const res = await t.request(method, path);
    expect(res.status).toBe(404);
    expectHtml(res);
    expect(res.body).not.toContain('"error"');
  }
}

export async function linkUsed(t: TestServer, token: string): Promise<boolean> {
  const hash = createHash('sha256').update(token).digest('hex');
  const rows = await t.sql<{ used_at: unknown }>('select used_at from email_verifications where token_hash = ?', [hash]);
  return rows[0]!.used_at !== null;
}

/**
 * Follows a link as a person does: opening it shows a page with a "Verify" button and changes
 * nothing (mail scanners open links too); the button's form post is what verifies.
 */
export async function openAndVerify(t: TestServer, link: { path: string; token: string }): Promise<Res> {
  const page = await t.request('GET', link.path);
  expect(page.status).toBe(200);
  expectHtml(page);
  expect(page.body).toContain('<button type="submit">Verify</button>');
  expect(await linkUsed(t, link.token)).toBe(false);
  return t.request('POST', link.path, { raw: '', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } });
}

// ---------------------------------------------------------------------------------------------
