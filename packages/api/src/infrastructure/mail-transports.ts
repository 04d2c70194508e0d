import type { ClaimedEmail } from '@lfk/db';
import type { Log } from '../log.ts';
import type { Transporter } from 'nodemailer';

/** A claimed outbox row as a transport sends it: its body with the token unsealed, no sending state. */
export type OutgoingEmail = Omit<ClaimedEmail, 'secretSealed' | 'attempts'>;

/**
 * The headers an auto-reply carries besides: its stop link, usable in one click (RFC 8058), and
 * RFC 3834's mark, so an answering machine on the other side does not answer it.
 */
function listHeaders(email: OutgoingEmail): Record<string, string> {
  if (!email.listUnsubscribe) return {};
  return { 'List-Unsubscribe': `<${email.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'Auto-Submitted': 'auto-replied' };
}

/**
 * The subject as a header carries it. Nodemailer encodes what is not plain ASCII, but passes an
 * encoded word (`=?utf-8?b?…?=`) through as it is, which a mail program then decodes: a subject
 * that holds one (a visitor's value, in an auto-reply) is encoded whole, so it reads as typed.
 */
function subjectHeader(subject: string, encodeWord: (text: string, mode: 'B', maxLength: number) => string): string {
  return subject.includes('=?') ? encodeWord(subject, 'B', 52) : subject;
}

/** Where the outbox hands its mail. `send` resolves once the mail is accepted, or throws. */
export interface MailTransport {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** Delivery by SMTP (`SMTP_URL`), with timeouts short enough that a stuck server is retried later. */
export function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer is loaded by the first email, not at start: a server may send none for a long while.
  let opened: Promise<{ transporter: Transporter; encodeWord: typeof import('nodemailer/lib/mime-funcs').encodeWord }> | undefined;
  const open = () =>
    (opened ??= Promise.all([import('nodemailer'), import('nodemailer/lib/mime-funcs')]).then(([nodemailer, mime]) => ({
      transporter: nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
      encodeWord: mime.encodeWord,
    })));
  return {
    async send(email) {
      const { transporter, encodeWord } = await open();
      await transporter.sendMail({
        from,
        to: email.to,
        ...(email.replyTo ? { replyTo: email.replyTo } : {}),
        subject: subjectHeader(email.subject, encodeWord),
        text: email.body,
        ...(email.html ? { html: email.html } : {}),
        headers: { 'X-Lfk-Email-Id': email.id, ...listHeaders(email) },
      });
    },
    close: () => void opened?.then(({ transporter }) => transporter.close()),
  };
}

/**
 * Without SMTP the message is printed to the server log, links included, so a person running
 * lfk on their own machine can still follow a verification link. It counts as delivered.
 */
export function logTransport(log: Log): MailTransport {
  return {
    async send(email) {
      const headers = { To: email.to, ...(email.replyTo ? { 'Reply-To': email.replyTo } : {}), Subject: email.subject, ...listHeaders(email) };
      const printed = [
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        '',
        email.body,
        ...(email.html ? ['', '--- the same, as HTML ---', email.html] : []),
      ].join('\n');
      log.info(
        {
          email: {
            id: email.id,
            kind: email.kind,
            to: email.to,
            reply_to: email.replyTo,
            subject: email.subject,
            text: email.body,
            ...(email.html ? { html: email.html } : {}),
            ...(email.listUnsubscribe ? { list_unsubscribe: email.listUnsubscribe } : {}),
          },
        },
        `email to ${email.to} (no SMTP_URL, so printed here instead of sent):\n${printed}`,
      );
    },
    close() {},
  };
}
