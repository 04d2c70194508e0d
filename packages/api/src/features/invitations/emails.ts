import type { NewEmail } from '@lfk/db';

/** What a reset that confirmed an account's address for the first time took back, as its email names it. */
export interface TakenBack {
  keys: { name: string | null; prefix: string; workspace: string }[];
  webhooks: { host: string; form: string; workspace: string }[];
  invitations: { email: string; role: string; workspace: string }[];
}

export function passwordResetEmail(input: { to: string; link: string; validMinutes: number }): NewEmail {
  return {
    kind: 'password_reset',
    to: input.to,
    subject: 'Reset your lfk password',
    body: [
      `Someone asked to reset the password of the lfk account ${input.to}.`,
      '',
      'To choose a new password, open this link:',
      '',
      input.link,
      '',
      `The link works once, for ${input.validMinutes} minutes, and signs the account out everywhere.`,
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

export function passwordChangedEmail(input: { to: string; how: 'changed' | 'reset'; takenBack?: TakenBack }): NewEmail {
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

export function deviceSignedInEmail(input: {
  to: string;
  login: { device_name: string; requested_ip: string | null; requested_user_agent: string | null; created_at: Date };
  at: Date;
  accountUrl: string;
}): NewEmail {
  const { login } = input;
  return {
    kind: 'device_signed_in',
    to: input.to,
    subject: `A device was signed in to your lfk account: ${login.device_name}`,
    body: [
      `A sign-in request from "${login.device_name}" was approved for the lfk account ${input.to} at ${input.at.toISOString()}.`,
      '',
      `It was asked for at ${login.created_at.toISOString()}, from ${login.requested_ip ?? 'an unknown address'}${login.requested_user_agent ? ` (${login.requested_user_agent})` : ''}.`,
      'The device now has a session of its own, which can do anything you can.',
      '',
      'If this was not you, revoke its session from your account page, and change your password:',
      '',
      input.accountUrl,
    ].join('\n'),
  };
}

export function invitationEmail(input: { to: string; workspaceName: string; role: string; invitedBy: string; link: string; validDays: number }): NewEmail {
  return {
    kind: 'invitation',
    to: input.to,
    subject: `You are invited to the workspace "${input.workspaceName}" on lfk`,
    body: [
      `${input.invitedBy} invited ${input.to} to the lfk workspace "${input.workspaceName}" as ${input.role === 'owner' ? 'an owner' : 'a member'}.`,
      '',
      'To join, open this link, then sign in, or sign up with this address:',
      '',
      input.link,
      '',
      `The link works for ${input.validDays} days. If you do not know why you got this, ignore it: nothing happens unless you accept.`,
    ].join('\n'),
  };
}
