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

/** How a stored submission arrived. */
export const SUBMISSION_SOURCES = ['browser', 'api_key'] as const;
export type SubmissionSource = (typeof SUBMISSION_SOURCES)[number];

export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Who an audit event says acted: a signed-in person or a key. */
export const ACTOR_TYPES = ['user', 'api_key'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** What an audit event records. */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.revoked',
  'form.created',
  'form.updated',
  'form.claimed',
  'member.added',
  'member.removed',
  'project.created',
  'workspace.created',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const FIELD_TYPES = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox', 'select'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

/** A sign-in from another device (`lfk login --web`): waiting for the person, then decided, then used once. */
export const DEVICE_LOGIN_STATES = ['pending', 'approved', 'denied', 'used'] as const;
export type DeviceLoginState = (typeof DEVICE_LOGIN_STATES)[number];

/** Unrevoked keys a workspace may hold at once. */
export const MAX_ACTIVE_KEYS = 10;

export const MIN_PASSWORD_LENGTH = 10;

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
  formName: 200,
  url: 2048,
  idempotencyKey: 255,
  idempotencyScope: 80,
  emailSubject: 300,
  deviceName: 100,
} as const;
