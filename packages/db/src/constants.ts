/**
 * The values every layer shares: the entities store them, the API's schemas check them, the
 * errors name them and the CLI offers them as choices. Pure data, no ORM import, so a browser
 * bundle or the CLI can take them from `@lfk/db/constants` without loading MikroORM.
 */

export const FORM_STATES = ['unclaimed', 'claimed'] as const;
export type FormState = (typeof FORM_STATES)[number];

/** Who may submit to a form: any browser on an allowed origin, or only a caller with a key. */
export const SUBMISSION_MODES = ['browser', 'api_key'] as const;
export type SubmissionMode = (typeof SUBMISSION_MODES)[number];

/** A stored submission is a real one, or spam kept aside (no email, no webhook, deleted after `SPAM_RETENTION_DAYS`). */
export const SUBMISSION_STATUSES = ['ok', 'spam'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/**
 * Why a submission is spam: its honeypot field was filled in, the captcha provider could not be
 * reached to verify its token (kept, not lost), or a member marked it.
 */
export const SPAM_REASONS = ['honeypot', 'captcha_unverified', 'marked'] as const;
export type SpamReason = (typeof SPAM_REASONS)[number];

/** Spam is deleted this many days after it arrived, whatever the form's own retention. */
export const SPAM_RETENTION_DAYS = 30;

/** A form's `retention_days`: submissions older than this are deleted (null keeps them). */
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

/** The captcha services a form may require of browser submissions, verified server-side. */
export const CAPTCHA_PROVIDERS = ['turnstile', 'hcaptcha', 'recaptcha'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** The files a form's submissions export to. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** How a stored submission arrived. */
export const SUBMISSION_SOURCES = ['browser', 'api_key'] as const;
export type SubmissionSource = (typeof SUBMISSION_SOURCES)[number];

export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who an audit event says acted: a signed-in person, a key, lfk itself (a key reaching its expiry),
 * or a secret scanner that reported a leaked key.
 */
export const ACTOR_TYPES = ['user', 'api_key', 'system', 'secret_scanner'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** What an audit event records. */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'api_key.rolled',
  'api_key.expired',
  'api_key.leaked',
  'api_key.updated',
  'form.created',
  'form.updated',
  'form.claimed',
  'form.closed',
  'form.reopened',
  'form.deleted',
  'submission.deleted',
  'submission.marked_spam',
  'submission.marked_not_spam',
  'submissions.deleted',
  'submissions.expired',
  'device_login.approved',
  'device_login.denied',
  'member.added',
  'member.removed',
  'member.role_changed',
  'member.left',
  'invitation.created',
  'invitation.resent',
  'invitation.cancelled',
  'project.created',
  'workspace.created',
  'workspace.renamed',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.disabled',
  'webhook.secret_rotated',
  'webhook.secret_revealed',
  'webhook.delivery_retried',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const FIELD_TYPES = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox', 'select'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

/** The events an endpoint may subscribe to. `webhook.test` is sent on request only, never subscribed. */
export const WEBHOOK_EVENT_TYPES = ['submission.created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Endpoints one form may have. */
export const MAX_WEBHOOKS_PER_FORM = 5;

/**
 * Deliveries to one endpoint in flight at once, across every replica: a slow or dead receiver holds
 * this many, never the queue. Also the connections kept open to one receiver.
 */
export const WEBHOOK_IN_FLIGHT_PER_ENDPOINT = 16;

/**
 * Deliveries of one workspace in flight at once, across every replica (the default of
 * `LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE`): a workspace whose receivers all hang holds this many of
 * the replicas' slots, never the others' share.
 */
export const WEBHOOK_IN_FLIGHT_PER_WORKSPACE = 32;

/** A delivery waits for its next attempt, reached its endpoint, or failed for good. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * Why an endpoint is disabled: a person turned it off, it answered `410 Gone`, or every delivery
 * to it failed for `WEBHOOK_FAILING_DISABLE_MS`.
 */
export const WEBHOOK_DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** A sign-in from another device (`lfk login --web`): waiting for the person, then decided, then used once. */
export const DEVICE_LOGIN_STATES = ['pending', 'approved', 'denied', 'used'] as const;
export type DeviceLoginState = (typeof DEVICE_LOGIN_STATES)[number];

/** Unrevoked keys a workspace may hold at once. */
export const MAX_ACTIVE_KEYS = 10;

/**
 * A key as lists and logs show it: `lfk_` and its first 6 random characters, enough to tell keys
 * apart and nothing to guess with. Stored with the key, and shown wherever a key is named.
 */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, 'lfk_'.length + 6);
}

/** Why a key stopped working: an owner revoked it, it reached its expiry, a roll's grace ended, or it was reported leaked. */
export const API_KEY_REVOKED_REASONS = ['revoked', 'expired', 'rolled', 'leaked'] as const;
export type ApiKeyRevokedReason = (typeof API_KEY_REVOKED_REASONS)[number];

/**
 * Why a known key was refused, as its usage counts it: stopped (one of the revoked reasons), or
 * presented from an address its allowlist does not name. A key that matches nothing is a guess,
 * counted against the address instead.
 */
export const API_KEY_REFUSAL_REASONS = [...API_KEY_REVOKED_REASONS, 'address_not_allowed'] as const;
export type ApiKeyRefusalReason = (typeof API_KEY_REFUSAL_REASONS)[number];

/** Refusals of a key by reason, as its usage counts them. */
export type RefusalCounts = Readonly<Record<ApiKeyRefusalReason, number>>;

/** Counts of no refusals, to add to. */
export const noRefusals = (): Record<ApiKeyRefusalReason, number> =>
  Object.fromEntries(API_KEY_REFUSAL_REASONS.map((reason) => [reason, 0])) as Record<ApiKeyRefusalReason, number>;

/** How many refusals the counts add up to. */
export const totalRefused = (refused: RefusalCounts): number => API_KEY_REFUSAL_REASONS.reduce((sum, reason) => sum + refused[reason], 0);

/** Each reason as an owner reads it, in the CLI and the dashboard: a rolled key was replaced. */
const REFUSAL_WORDS: Record<ApiKeyRefusalReason, string> = {
  revoked: 'revoked',
  expired: 'expired',
  rolled: 'replaced',
  leaked: 'leaked',
  address_not_allowed: 'address not allowed',
};

/** The reasons with any refusals, with how many: `replaced 120, address not allowed 3`; empty for none. */
export const describeRefusals = (refused: RefusalCounts): string =>
  API_KEY_REFUSAL_REASONS.filter((reason) => refused[reason] > 0)
    .map((reason) => `${REFUSAL_WORDS[reason]} ${refused[reason].toLocaleString('en')}`)
    .join(', ');

/** Addresses and ranges one key's allowlist may name. */
export const MAX_ALLOWED_IPS = 20;

/** How far ahead a key's `expires_at` may be set at creation, in seconds: 1 hour to 1 year. */
export const API_KEY_EXPIRY_SECONDS = { min: 3600, max: 365 * 86_400 } as const;

/** A roll's grace period, in seconds: the old key keeps working this long (0: revoked at once). */
export const API_KEY_ROLL_GRACE_SECONDS = { max: 7 * 86_400 } as const;

/** Owners are emailed this many days before a key expires, once each (nearest last). */
export const API_KEY_EXPIRY_REMINDER_DAYS = [7, 1] as const;

/** How many UTC days of a key's usage one request may ask for. */
export const API_KEY_USAGE_DAYS = { default: 30, max: 90 } as const;

export const MIN_PASSWORD_LENGTH = 10;

/** How long an invitation's link works, and how many may wait in one workspace. */
export const INVITATION_TTL_DAYS = 7;
export const MAX_PENDING_INVITATIONS = 100;

/** How many items one page of a list holds (`limit`): at most `max`, `default` when not asked. */
export const PAGE_LIMIT = { default: 50, max: 100 } as const;

/**
 * The most calls one tRPC batch may hold (`/trpc`); more are refused with 400 batch_too_large. Each
 * call is a procedure run, often a transaction, so an unbounded batch lets one request (even an
 * anonymous one) order any amount of work.
 */
export const MAX_BATCH_CALLS = 10;

/**
 * The lengths, in characters, of the text columns that hold what people and callers send. The
 * entities declare their columns with these and the API's schemas take their limits from here, so
 * a value the API accepts always fits where it is stored.
 */
export const TEXT_LIMITS = {
  email: 254,
  userName: 100,
  workspaceName: 100,
  projectName: 100,
  apiKeyName: 64,
  apiKeyDescription: 500,
  formName: 200,
  url: 2048,
  idempotencyKey: 255,
  idempotencyScope: 80,
  emailSubject: 300,
  deviceName: 100,
  webhookDescription: 200,
  /** What a closed form tells the person who tries to send it. */
  closedMessage: 1000,
  /** A captcha site key as the provider issues it (public), and its secret (sealed at rest). */
  captchaSiteKey: 200,
  captchaSecret: 200,
  /** What is kept of the address and the `User-Agent` a key was last used from. */
  ipAddress: 64,
  userAgent: 512,
} as const;
