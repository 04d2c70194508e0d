import type { RouterOutputs } from '@lfk/client';
import { WEBHOOK_DISABLED_WHY, type WebhookDisabledReason, type WebhookEventType, type WebhookKind, type WebhookSigningScheme } from '@lfk/vocabulary';

export type Webhook = RouterOutputs['webhooks']['list']['data'][number];

/** Each event an endpoint may take, in words. */
export const EVENT_WORDS: Record<WebhookEventType, string> = {
  'submission.created': 'A submission arrives (submission.created)',
  'submission.released': 'A member releases one from spam (submission.released)',
  'submission.deleted': 'A member deletes one (submission.deleted)',
  'form.closed': 'A person closes the form (form.closed)',
  'form.reopened': 'A person reopens it (form.reopened)',
};

/** Each kind of endpoint, in words: as a choice, and what its URL is. */
export const KIND_WORDS: Record<WebhookKind, { choice: string; hint: string; name: string }> = {
  webhook: {
    choice: 'Your server: each event as signed JSON',
    hint: 'An https:// address of your server, such as https://example.com/hooks/lfk.',
    name: 'Webhook',
  },
  slack: {
    choice: 'A Slack channel: a readable message for each event',
    hint: 'The channel’s incoming webhook URL (https://hooks.slack.com/services/…), or one of a service that takes Slack’s format.',
    name: 'Slack',
  },
  discord: {
    choice: 'A Discord channel: a readable message for each event',
    hint: 'The channel’s webhook URL (https://discord.com/api/webhooks/…).',
    name: 'Discord',
  },
};

/** Each way an endpoint may sign, in words. */
export const SIGNING_WORDS: Record<WebhookSigningScheme, string> = {
  'hmac-sha256': 'With a secret your server keeps (HMAC-SHA256)',
  ed25519: 'With a key pair: your server holds only the public key, which cannot sign (Ed25519)',
};

/** How an endpoint's requests are signed, in a phrase. */
export const SIGNED_WITH = {
  'hmac-sha256': 'signs with a shared secret',
  ed25519: 'signs with Ed25519',
  none: 'not signed (the channel checks no signature: keep its URL secret)',
} as const;

/** Why it is disabled, as a sentence: `Disabled by a person.`, `Disabled: the receiver answered 410 Gone.` */
export const disabledWhy = (reason: WebhookDisabledReason) => `Disabled${reason === 'manual' ? '' : ':'} ${WEBHOOK_DISABLED_WHY[reason]}.`;
