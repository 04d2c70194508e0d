import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS, WEBHOOK_DISABLED_REASONS, WEBHOOK_KINDS, WEBHOOK_SIGNING_SCHEMES } from '@lfk/vocabulary';
import { WebhookEndpointRepository } from '../repositories/webhook-endpoints.ts';
import { UpdatableEntity } from './base.ts';
import { Form } from './form.ts';

/** A secret rotated away, sealed, and until when it still signs (`created_at` unknown for one rotated before lfk kept it). */
export interface PreviousSecret {
  number: number;
  sealed: string;
  /** An Ed25519 key's public half (`whpk_…`), what receivers verify its signatures with; absent for a shared secret. */
  public_key?: string | null;
  created_at: string | null;
  expires_at: string;
}

/** A time an endpoint was disabled, as ISO instants. */
export interface MissedRange {
  since: string;
  until: string;
}

/**
 * Where a form's events are delivered. The signing secret is stored sealed (AES-256-GCM, see the
 * API's secret box), never in plaintext: lfk must use it again to sign. After a rotation each
 * previous secret keeps signing beside the new one until its own `expires_at` (`previousSecrets`,
 * newest first), unless ended early. Secrets are numbered, so one can be named. When it was
 * last delivered to, and how that went, is read from its deliveries, not kept twice.
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  extends: UpdatableEntity,
  repository: () => WebhookEndpointRepository,
  properties: {
    form: () => p.manyToOne(Form).deleteRule('cascade'),
    url: p.string().length(TEXT_LIMITS.url),
    /** Signed JSON events, or a readable message to a Slack or Discord incoming webhook; chosen when it is made. */
    kind: p.enum(WEBHOOK_KINDS).default('webhook'),
    description: p.string().length(TEXT_LIMITS.webhookDescription).nullable(),
    events: p.json<string[]>(),
    enabled: p.boolean().default(true),
    disabledReason: p.enum(WEBHOOK_DISABLED_REASONS).nullable(),
    /** Since when it is disabled: what a recover offered on enabling it sends again. */
    disabledAt: p.datetime().nullable(),
    /** A shared secret (`whsec_…`) or an Ed25519 key (`whsk_…`, whose public half is `publicKey`); chosen when it is made. */
    signing: p.enum(WEBHOOK_SIGNING_SCHEMES).default('hmac-sha256'),
    secretSealed: p.text(),
    /** The current Ed25519 key's public half (`whpk_…`): not a secret, shown to anyone who may read the endpoint. */
    publicKey: p.string().length(64).nullable(),
    /** The current secret's number: 1 for the first, one more at each rotation. */
    secretNumber: p.integer().default(1),
    secretCreatedAt: p.datetime(),
    previousSecrets: p.json<PreviousSecret[]>().default([]),
    /**
     * The times it was disabled whose events were not sent since, oldest first, each
     * `[since, until)`: kept once it is enabled again (the dashboard offers "Send missed events"
     * while any waits), narrowed from its start as a recover sends it, gone once all is sent. Apart,
     * not joined: the time between two was delivered live, and is not offered again.
     */
    missedRanges: p.json<MissedRange[]>().default([]),
    /** Since when every attempt has failed; cleared by a success. */
    failingSince: p.datetime().nullable(),
  },
  indexes: [{ properties: ['form', 'id'] }],
});
export type IWebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
