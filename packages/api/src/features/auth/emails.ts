import type { OutgoingEmail } from '../../infrastructure/outbox.ts';

/** What a reset that confirmed an account's address for the first time took back, as its email names it. */
export interface TakenBack {
  keys: { name: string | null; prefix: string; workspace: string }[];
  webhooks: { host: string; form: string; workspace: string }[];
  invitations: { email: string; role: string; workspace: string }[];
}

export function passwordChangedEmail(input: { to: string; how: 'changed' | 'reset'; takenBack?: TakenBack }): OutgoingEmail {
  return {
    kind: 'password_changed',
    to: input.to,
    subject: 'Your lfk password was changed',
    body: [
      input.how === 'reset'
        ? `The password of the lfk account ${input.to} was reset with a link sent to this address, and every session of the account was signed out.`
        : `The password of the lfk account ${input.to} was changed, and every other session of the account was signed out.`,
      ...(input.takenBack ? takenBackLines(input.takenBack) : []),
      '',
      'If this was not you, reset your password now from the sign-in page ("Forgot password?") and review your workspaces.',
    ].join('\n'),
  };
}

/** What a reset that confirmed the address for the first time took back, one line each; nothing when it took nothing. */
function takenBackLines({ keys, webhooks, invitations }: TakenBack): string[] {
  const lines = [
    ...keys.map((k) => `- API key ${k.name ? `"${k.name}" ` : ''}(${k.prefix}…) of the workspace "${k.workspace}": revoked`),
    ...webhooks.map((w) => `- Webhook to ${w.host} on the form "${w.form}" of the workspace "${w.workspace}": deleted`),
    ...invitations.map((i) => `- Invitation of ${i.email} as ${i.role === 'owner' ? 'an owner' : 'a member'} to the workspace "${i.workspace}": cancelled`),
  ];
  if (lines.length === 0) return [];
  return [
    '',
    'This also confirmed the address, which the account had not confirmed before: whoever signed up with it may not have been you.',
    'So what the account handed out before it was confirmed was taken back:',
    '',
    ...lines,
    '',
    'Make new keys and webhooks where you need them, and invite again whoever should join.',
  ];
}
