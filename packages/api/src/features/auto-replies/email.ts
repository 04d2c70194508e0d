import type { AutoReply } from '@lfk/db';
import { fillTemplate, shownValue } from '@lfk/vocabulary';
import { escapeHtml } from '../../infrastructure/html-escape.ts';
import { oneLine, type OutgoingEmail } from '../../infrastructure/outbox.ts';

/** Paragraphs (blank-line separated) as HTML, each line kept: everything escaped, nothing a link or markup. */
function htmlOf(paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p>${p.split('\n').map(escapeHtml).join('<br>\n')}</p>`).join('\n');
  return `<!doctype html>\n<html><head><meta charset="utf-8"></head><body>\n${body}\n</body></html>\n`;
}

/**
 * The auto-reply to the person who submitted: the owner's subject and text with each `{field}`
 * filled in (one line in the subject; in the HTML, escaped), then who sent it, why, and the link
 * that stops them. `Reply-To` the form's notification address, so an answer reaches the owner.
 */
export function autoReplyEmail(input: {
  to: string;
  replyTo: string | null;
  settings: AutoReply;
  values: Record<string, unknown>;
  formName: string;
  workspaceName: string;
  stopUrl: string;
}): OutgoingEmail {
  const shown = (field: string) => shownValue(input.values[field]);
  const text = fillTemplate(input.settings.text, shown).replace(/\r\n?/g, '\n');
  const footer = [
    `This is an automatic reply from ${input.workspaceName}: ${input.to} was entered in their form "${input.formName}".`,
    `If that was not you, or you want no more automatic replies from ${input.workspaceName}, follow this link: ${input.stopUrl}`,
  ];
  return {
    kind: 'auto_reply',
    to: input.to,
    replyTo: input.replyTo,
    subject: fillTemplate(input.settings.subject, (field) => oneLine(shown(field))),
    body: [text, '', '--', ...footer].join('\n'),
    html: htmlOf([...text.split(/\n{2,}/), footer.join('\n')]),
    listUnsubscribe: input.stopUrl,
  };
}
