import { AUTO_REPLY_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';
import { multilineText, text } from '../../common-schemas.ts';

const fieldName = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'Must be the name of one of the form’s fields.');

/**
 * A form's auto-reply as set: on create, `email_field`, `subject` and `text` are required; on
 * update what is left out stays as it was. `{field}` in the subject or the text is replaced by
 * that field's value (escaped in the HTML rendering, cut to 200 characters).
 */
export const autoReplyInput = z
  .strictObject({
    enabled: z.boolean().optional().describe('Whether real submissions are answered (default true when the auto-reply is first set).'),
    email_field: fieldName.optional().describe('The email field whose address is answered.'),
    subject: text(AUTO_REPLY_LIMITS.subject).optional().describe('The subject; may hold `{field}` placeholders.'),
    text: multilineText(AUTO_REPLY_LIMITS.text)
      .optional()
      .describe(
        `The message, plain text; may hold \`{field}\` placeholders (at most ${AUTO_REPLY_LIMITS.placeholders} in the subject and text together). ` +
          'lfk adds who sent it, why, and how to stop them.',
      ),
  })
  .meta({ id: 'AutoReplyInput' });
export type AutoReplyInput = z.infer<typeof autoReplyInput>;

export const autoReply = z.object({ enabled: z.boolean(), email_field: z.string(), subject: z.string(), text: z.string() }).meta({ id: 'AutoReply' });

/** What a stop link stops: auto-replies to `email` from the forms of `workspace`. */
export const autoReplyStopInput = z.object({ token: z.string() });
export const autoReplyStopped = z.object({ email: z.string(), workspace: z.object({ name: z.string() }) });
