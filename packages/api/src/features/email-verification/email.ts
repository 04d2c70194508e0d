import type { OutgoingEmail } from '../../infrastructure/outbox.ts';

export function verificationEmail(input: { to: string; formName: string; link: string; validHours: number }): OutgoingEmail {
  return {
    kind: 'verification',
    to: input.to,
    subject: `Confirm notifications for the form "${input.formName}"`,
    body: [
      `Someone asked lfk to send the submissions of the form "${input.formName}" to ${input.to}.`,
      '',
      'To confirm that this address may receive them, open this link and press "Verify":',
      '',
      input.link,
      '',
      `The link works once, for ${input.validHours} hours. If you did not ask for this, ignore this email:`,
      'nothing will be sent to you.',
    ].join('\n'),
  };
}

export function accountVerificationEmail(input: { to: string; link: string; validHours: number }): OutgoingEmail {
  return {
    kind: 'account_verification',
    to: input.to,
    subject: 'Confirm your lfk account address',
    body: [
      `Someone signed up for lfk with ${input.to}.`,
      '',
      'To confirm that this address is yours, open this link and press "Verify":',
      '',
      input.link,
      '',
      `The link works once, for ${input.validHours} hours. Once it is confirmed, the account can create API keys,`,
      'add webhooks and invite people, and a form of your workspaces that notifies this address needs no',
      'verification of its own.',
      '',
      'If you did not sign up, do not press "Verify": ignore this email. To take over an account someone else',
      'made with your address, reset its password ("Forgot password?"): what it handed out is taken back.',
    ].join('\n'),
  };
}
