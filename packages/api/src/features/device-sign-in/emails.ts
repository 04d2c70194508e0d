import type { OutgoingEmail } from '../../infrastructure/outbox.ts';

export function deviceSignedInEmail(input: {
  to: string;
  login: { device_name: string; requested_ip: string | null; requested_user_agent: string | null; created_at: Date };
  at: Date;
  accountUrl: string;
}): OutgoingEmail {
  const { login } = input;
  return {
    kind: 'device_signed_in',
    to: input.to,
    subject: `A device was signed in to your lfk account: ${login.device_name}`,
    body: [
      `A sign-in request from "${login.device_name}" was approved for the lfk account ${input.to} at ${input.at.toISOString()}.`,
      '',
      `It was asked for at ${login.created_at.toISOString()}, from ${login.requested_ip ?? 'an unknown address'}` +
        `${login.requested_user_agent ? ` (${login.requested_user_agent})` : ''}.`,
      'The device now has a session of its own, which can do anything you can.',
      '',
      'If this was not you, revoke its session from your account page, and change your password:',
      '',
      input.accountUrl,
    ].join('\n'),
  };
}
