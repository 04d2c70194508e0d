import type { OutgoingEmail } from '../../infrastructure/outbox.ts';

export function passwordResetEmail(input: { to: string; link: string; validMinutes: number }): OutgoingEmail {
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
