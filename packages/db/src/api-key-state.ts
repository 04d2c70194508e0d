import type { ApiKeyRevokedReason } from '@lfk/vocabulary';

// When an API key works, defined once: it is not revoked, and its expiry (if any) is still ahead.
// A roll's grace is the old key's expiry, so a rolled key stops like an expired one. A key past its
// expiry is refused at once, before the sweep writes its revocation down. The same rule in code
// (`keyStateAt`, `isUsableAt`), in SQL (`USABLE_AT_SQL`, `EXPIRED_REASON_SQL`) and as a MikroORM
// filter (`usableAtFilter`).

/** A key's lifetime as a row or an entity holds it (an entity's unset columns read as undefined). */
export interface KeyLifetime {
  revokedAt?: Date | null | undefined;
  revokedReason?: ApiKeyRevokedReason | null | undefined;
  expiresAt?: Date | null | undefined;
  rolledTo?: string | null | undefined;
}

export type KeyState = { status: 'active'; revokedAt: null; reason: null } | { status: 'revoked'; revokedAt: Date; reason: ApiKeyRevokedReason };

export const isUsableAt = (key: KeyLifetime, now: Date): boolean => !key.revokedAt && (!key.expiresAt || key.expiresAt > now);

/** Whether the key works at `now`, and if not, since when and why: revoked, or expired or rolled at its expiry. */
export function keyStateAt(key: KeyLifetime, now: Date): KeyState {
  if (key.revokedAt) return { status: 'revoked', revokedAt: key.revokedAt, reason: key.revokedReason ?? 'revoked' };
  if (!isUsableAt(key, now)) return { status: 'revoked', revokedAt: key.expiresAt!, reason: expiredReason(key) };
  return { status: 'active', revokedAt: null, reason: null };
}

/** Why a key past its expiry stopped: a roll set that expiry, or the key was made to expire. */
const expiredReason = (key: KeyLifetime): ApiKeyRevokedReason => (key.rolledTo ? 'rolled' : 'expired');

/** `isUsableAt` in SQL, on `api_keys`; its one parameter is now. */
export const USABLE_AT_SQL = 'revoked_at is null and (expires_at is null or expires_at > ?)';

/** Keys past their expiry whose revocation is not yet written down: unusable by `isUsableAt`, still unrevoked. */
export const EXPIRED_UNREVOKED_AT_SQL = 'revoked_at is null and expires_at <= ?';

/** Keys that work now and will stop at their expiry within a window: the parameters are now and the window's end. */
export const USABLE_BUT_EXPIRING_SQL = 'revoked_at is null and expires_at > ? and expires_at <= ?';

/** `expiredReason` in SQL, on `api_keys`. */
export const EXPIRED_REASON_SQL = "case when rolled_to is null then 'expired' else 'rolled' end";

/** `isUsableAt` as a MikroORM filter on `ApiKey`. */
export const usableAtFilter = (now: Date) => ({ revokedAt: null, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] });
