import type { ChangedKey } from '@lfk/db';
import type { OutgoingEmail } from '../../infrastructure/outbox.ts';
import { keysPage, named } from '../keys/emails.ts';

/** A key of theirs was found in public and has been revoked. */
export function leakedKeyEmail(input: { to: string; key: ChangedKey; url: string | null; reporter: string; publicUrl: string }): OutgoingEmail {
  const { key } = input;
  return {
    kind: 'api_key_leaked',
    to: input.to,
    subject: `Your API key ${key.prefix}… was found in public and has been revoked`,
    body: [
      `The API key ${named(key)} of workspace ${key.workspaceId} was reported by ${input.reporter} as published`,
      input.url ? `at: ${input.url}` : '(the report did not say where).',
      '',
      'We revoked it at once: every request using it is now refused with 401 invalid_api_key.',
      'Create a new key, put it where the old one was used, and remove the old key from where it was published',
      '(and from its history): anyone may have copied it.',
      '',
      keysPage(input.publicUrl, key),
    ].join('\n'),
  };
}
