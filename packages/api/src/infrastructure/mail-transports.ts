import type { Log } from '../log.ts';
import { createTransport } from 'nodemailer';

export interface OutgoingEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  body: string;
  /** Where a reply goes, when not to the sender. */
  replyTo: string | null;
}

/** Where the outbox hands its mail. `send` resolves once the mail is accepted, or throws. */
export interface MailTransport {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** Delivery by SMTP (`SMTP_URL`), with timeouts short enough that a stuck server is retried later. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(email) {
      await transporter.sendMail({
        from,
        to: email.to,
        ...(email.replyTo ? { replyTo: email.replyTo } : {}),
        subject: email.subject,
        text: email.body,
        headers: { 'X-Lfk-Email-Id': email.id },
      });
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP the message is printed to the server log, links included, so a person running
 * lfk on their own machine can still follow a verification link. It counts as delivered.
 */
export function logTransport(log: Log): MailTransport {
  return {
    async send(email) {
      log.info(
        { email: { id: email.id, kind: email.kind, to: email.to, reply_to: email.replyTo, subject: email.subject, text: email.body } },
        `email to ${email.to}${email.replyTo ? ` (Reply-To: ${email.replyTo})` : ''} (no SMTP_URL, so printed here instead of sent):\n${email.body}`,
      );
    },
    close() {},
  };
}
