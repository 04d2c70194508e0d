import type { OutgoingEmail, UnaskedAllowance } from '../../infrastructure/outbox.ts';

/** The fragment the kit reads on the form's page: the form and the draft's resume token (never sent to a server by the browser). */
export const draftLinkOf = (pageUrl: string, formId: string, token: string) => `${pageUrl.split('#')[0]}#lfk-draft=${formId}:${token}`;

/**
 * "Continue later": the link that opens the form's page with the visitor's draft, asked for from
 * that page. The token in it is sealed in the outbox (`secret`), as a reset link's is; like an
 * auto-reply it says who sent it and carries the link that stops the workspace's mail to the address.
 */
export function draftLinkEmail(input: {
  to: string;
  link: string;
  token: string;
  formName: string;
  workspaceName: string;
  expiresAt: Date;
  stopUrl: string;
  secretBox: NonNullable<OutgoingEmail['secret']>['box'];
  unasked: UnaskedAllowance;
}): OutgoingEmail {
  const until = `${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return {
    kind: 'draft_link',
    to: input.to,
    subject: `Finish your answers to "${input.formName}"`,
    body: [
      `You asked for a link to finish the form "${input.formName}" of ${input.workspaceName} later. Your answers so far are kept until ${until}:`,
      '',
      input.link,
      '',
      'Files and private fields (a password, a card number) are never kept: fill them in again before you send.',
      '',
      '--',
      `This email was asked for on ${input.workspaceName}'s page with the address ${input.to}.`,
      `If that was not you, or you want no more automatic emails from ${input.workspaceName}, follow this link: ${input.stopUrl}`,
    ].join('\n'),
    listUnsubscribe: input.stopUrl,
    secret: { token: input.token, box: input.secretBox },
    unasked: input.unasked,
  };
}
