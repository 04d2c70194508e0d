import type { ChangedKey } from '@lfk/db';
import type { OutgoingEmail } from '../../infrastructure/outbox.ts';

/** How a key is named to its owners: its display prefix, and its name when it has one. */
export const named = (key: ChangedKey) => `${key.prefix}…${key.name ? ` ("${key.name}")` : ''}`;

export const keysPage = (publicUrl: string, key: ChangedKey) =>
  `Manage the workspace's keys in the dashboard (${publicUrl}/) or with 'lfk keys list --workspace ${key.workspaceId}'.`;

/** A key of theirs expires in `days` days: roll it before then, or let it end. */
export function expiryReminderEmail(input: { to: string; key: ChangedKey; days: number; publicUrl: string }): OutgoingEmail {
  const { key, days } = input;
  const when = key.expiresAt?.toISOString() ?? 'soon';
  return {
    kind: 'api_key_expiring',
    to: input.to,
    subject: `Your API key ${key.prefix}… expires in ${days === 1 ? '1 day' : `${days} days`}`,
    body: [
      `The API key ${named(key)} of workspace ${key.workspaceId} expires at ${when}.`,
      'From then on, every request using it is refused with 401 invalid_api_key.',
      '',
      `To replace it without an outage, roll it with a grace period: 'lfk keys roll ${key.id} --grace 24h'`,
      'gives you a new key at once and keeps the old one working for 24 hours while you deploy the new one.',
      '',
      keysPage(input.publicUrl, key),
    ].join('\n'),
  };
}
