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
  'workspace.file_link_ttl_changed',
  'workspace.two_factor_requirement_changed',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.disabled',
  'webhook.secret_rotated',
  'webhook.secret_ended',
  'webhook.recovered',
  'webhook.secret_revealed',
  'webhook.delivery_retried',
  'webhook.delivery_discarded',
  'two_factor.totp_enabled',
  'two_factor.totp_disabled',
  'two_factor.passkey_added',
  'two_factor.passkey_removed',
  'two_factor.recovery_codes_regenerated',
  'two_factor.recovery_code_used',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A sign-in from another device (`lfk login --web`): waiting for the person, then decided, then used once. */
export const DEVICE_LOGIN_STATES = ['pending', 'approved', 'denied', 'used'] as const;
export type DeviceLoginState = (typeof DEVICE_LOGIN_STATES)[number];

export const MIN_PASSWORD_LENGTH = 10;

/** How long an invitation's link works, and how many may wait in one workspace. */
export const INVITATION_TTL_DAYS = 7;
export const MAX_PENDING_INVITATIONS = 100;

/** What a sign-in waiting for its second half is for (see `AuthChallenge`). */
export const AUTH_CHALLENGE_PURPOSES = ['second_factor', 'passkey_sign_in', 'passkey_registration', 'totp_enrolment', 'reauthentication'] as const;
export type AuthChallengePurpose = (typeof AUTH_CHALLENGE_PURPOSES)[number];

/** The factors a sign-in may be completed with. */
export const SECOND_FACTORS = ['totp', 'passkey', 'recovery_code'] as const;
export type SecondFactor = (typeof SECOND_FACTORS)[number];

/** Recovery codes handed out at once; each is spent by its use. */
export const RECOVERY_CODE_COUNT = 10;
/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 20;
