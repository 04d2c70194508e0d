import type { OutgoingEmail } from '../../infrastructure/outbox.ts';

export function invitationEmail(input: { to: string; workspaceName: string; role: string; invitedBy: string; link: string; validDays: number }): OutgoingEmail {
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
