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
 * Why a key stopped, in words, for everything that says it. `word`: as an owner reads it (a rolled
 * key was replaced), in the refusal counts of both clients; `badge`: the dashboard's badge, and
 * `why`: the rest of its sentence, before the time; `cli`: the CLI's status column.
 */
export const KEY_STOP_WORDS: Readonly<Record<ApiKeyRevokedReason, { word: string; badge: string; why: string; cli: string }>> = {
  revoked: { word: 'revoked', badge: 'Revoked', why: 'by an owner', cli: 'revoked' },
  expired: { word: 'expired', badge: 'Expired', why: 'at its expiry', cli: 'expired' },
  rolled: { word: 'replaced', badge: 'Rolled', why: 'replaced by a new key', cli: 'replaced' },
  leaked: { word: 'leaked', badge: 'Leaked', why: 'found in public by a secret scanner', cli: 'revoked (leaked)' },
};

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

/** Each refusal reason as an owner reads it, in the CLI and the dashboard. */
const REFUSAL_WORDS: Record<ApiKeyRefusalReason, string> = {
  revoked: KEY_STOP_WORDS.revoked.word,
  expired: KEY_STOP_WORDS.expired.word,
  rolled: KEY_STOP_WORDS.rolled.word,
  leaked: KEY_STOP_WORDS.leaked.word,
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
