import { until } from './wait.ts';

/** A server whose log lines the test keeps (a test server, the CLI's server under test). */
interface Logged {
  logs: string[];
}

/** The emails that carry a link, and the shape of the token each link holds. */
const LINK_TOKENS = {
  verification: /lfv_[0-9A-Za-z]+/,
  account_verification: /lfv_[0-9A-Za-z]+/,
  password_reset: /lfr_[0-9A-Za-z]+/,
  invitation: /lfi_[0-9A-Za-z]+/,
  // An auto-reply's stop link (List-Unsubscribe).
  auto_reply: /lfu_[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+/,
} as const;
export type LinkEmailKind = keyof typeof LINK_TOKENS;

/** The token of the link an email of `kind` carries, read from its text. */
export function linkTokenIn(kind: LinkEmailKind, text: string): string {
  const token = LINK_TOKENS[kind].exec(text)?.[0];
  if (!token) throw new Error(`no ${kind} link in: ${text.slice(0, 200)}`);
  return token;
}

/** The emails of `kind` sent to `to` so far, oldest first, as the log shows them (no SMTP here). */
export function emailsSentTo(t: Logged, to: string, kind?: string): { kind: string; subject: string; text: string }[] {
  const sent = [];
  for (const line of t.logs) {
    const email = JSON.parse(line).email;
    if (email?.to === to && (kind === undefined || email.kind === kind)) sent.push(email);
  }
  return sent;
}

/**
 * Without SMTP the server prints its mail to the log: the token of the newest link of `kind` sent
 * to `to` is read from there, once `count` such emails have gone out.
 */
export function linkTokenSentTo(t: Logged, to: string, kind: LinkEmailKind, count = 1): Promise<string> {
  return until(`${count} ${kind} email(s) to ${to}`, () => {
    const sent = emailsSentTo(t, to, kind);
    return sent.length >= count ? linkTokenIn(kind, sent[sent.length - 1]!.text) : undefined;
  });
}

/** The token of the verification link a form's `notify_email` was sent. */
export const verificationTokenSentTo = (t: Logged, to: string): Promise<string> => linkTokenSentTo(t, to, 'verification');
