import { ApiKey, keyStateAt, Session, type StoredKey } from '@lfk/db';
import type { ApiKeyRefusalReason } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import { ApiError } from '../errors.ts';
import type { Metrics } from '../metrics.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import { AddressAllowlist } from './address-allowlist.ts';
import type { ApiKeyCache, KeyVerdict } from './api-key-cache.ts';
import { isWellFormedApiKey } from './api-key-format.ts';
import type { KeyPrincipal, Principal } from './principal.ts';
import { sha256 } from './secrets.ts';
import { isWellFormedSessionToken, SESSION_TOKEN_PREFIX } from './tokens.ts';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
/** A session's expiry slides forward at most once a day, so using a session rarely writes. */
const SESSION_SLIDE_AFTER_MS = 24 * 3600 * 1000;

export interface Authentication {
  principal: Principal;
  /** Why presented credentials were refused; null when none were presented or they are good. */
  failure: ApiError | null;
  via: 'bearer' | 'cookie' | null;
}

export interface CredentialsOnRequest {
  method: string;
  authorization: string | undefined;
  sessionCookie: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** True for the origins this server answers as (see the server's own-origin.ts). */
  isOwnOrigin(origin: string): boolean;
  /** The client's address: checked against a key's allowlist, counted when a key is a guess, and where a key was last used from. */
  ip: string;
  /** The `User-Agent` header: where a key was last used from, with the address. */
  userAgent?: string | undefined;
}

/** Where a key's uses go, accepted or refused (features/keys/key-uses.ts records them in batches). */
export interface KeyUseSink {
  accepted(keyId: string, at: Date, ip?: string, userAgent?: string): void;
  refused(keyId: string, reason: ApiKeyRefusalReason, at: Date): void;
}

export interface Verifiers {
  apiKeyCache: ApiKeyCache;
  keyUses: KeyUseSink;
  rateLimits: RateLimits;
  metrics: Metrics;
}

const ANONYMOUS: Principal = { kind: 'anonymous' };
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * One error for every bad key, so unknown, revoked and malformed answer byte for byte alike; and
 * made once, as a flood of bad keys is answered from it (the server serializes its answer once).
 */
export const INVALID_API_KEY = new ApiError('invalid_api_key');

/** `em` is called only when the database must be asked (a cached key never forks one). */
export async function authenticate(em: () => EntityManager, request: CredentialsOnRequest, verifiers: Verifiers, now: Date): Promise<Authentication> {
  if (request.authorization !== undefined) {
    const token = bearerToken(request.authorization);
    if (token?.startsWith(SESSION_TOKEN_PREFIX)) {
      return fromSession(em(), token, 'bearer', now, request);
    }
    // An address this process knows keeps presenting bad keys is held back before any lookup.
    const held = verifiers.rateLimits.heldHere('key_failures', request.ip);
    if (held) {
      verifiers.metrics.keyChecked('held_back', 'none');
      return { principal: ANONYMOUS, failure: held, via: 'bearer' };
    }
    const verdict = await verifyApiKey(em, token, verifiers, now, request);
    if (verdict.principal) return { principal: verdict.principal, failure: null, via: 'bearer' };
    // Only a key that matches nothing is a guess, counted across replicas: a refusal past the
    // shared limit answers as held back already. A known key's refusal was counted as its use, and
    // costs the same statement counting nothing, so an unknown key and a revoked one cost alike
    // (spec §5.6). A refusal answered from the cache asked nothing and costs nothing more, either way.
    const over = verdict.bucket === 'none' ? null : await countKeyFailure(verifiers, request.ip, verdict.bucket);
    return { principal: ANONYMOUS, failure: over ?? INVALID_API_KEY, via: 'bearer' };
  }
  if (request.sessionCookie !== undefined) {
    if (!SAFE_METHODS.has(request.method) && !passesCsrfCheck(request)) {
      return { principal: ANONYMOUS, failure: new ApiError('csrf_failed'), via: 'cookie' };
    }
    return fromSession(em(), request.sessionCookie, 'cookie', now, request);
  }
  return { principal: ANONYMOUS, failure: null, via: null };
}

async function countKeyFailure(verifiers: Verifiers, ip: string, bucket: 'count' | 'touch'): Promise<ApiError | null> {
  try {
    return bucket === 'count' ? await verifiers.rateLimits.record('key_failures', ip) : await verifiers.rateLimits.recordNothing('key_failures', ip);
  } catch {
    // The database is unreachable: the key is refused all the same, only not counted.
    return null;
  }
}

/**
 * A bearer credential that was presented and refused refuses the whole request, whatever it asks
 * for: every procedure starts with this rule (see publicProcedure), and the REST bridge applies it
 * before calling one.
 */
export function refusal(auth: Authentication): ApiError | null {
  return auth.via === 'bearer' ? auth.failure : null;
}

function bearerToken(header: string): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * A browser marks cross-site requests with `Origin` (and `Sec-Fetch-Site`). A request that carries
 * neither did not come from a page of another site, so it cannot be a forgery.
 */
function passesCsrfCheck(request: CredentialsOnRequest): boolean {
  if (request.origin !== undefined) return request.isOwnOrigin(request.origin);
  return request.secFetchSite === undefined || request.secFetchSite === 'same-origin' || request.secFetchSite === 'none';
}

/**
 * What a refusal costs on the address's shared limit of refused keys: `count` a guess (a malformed
 * key, or one the database did not know), `touch` the same statement counting nothing (a known key
 * the database refused), `none` for a refusal answered from the cache.
 */
type RefusalCost = 'count' | 'touch' | 'none';

/**
 * Format and checksum first (no I/O), then the cache, then the database. A key past its expiry is
 * refused like a revoked one; a cached key is cached no longer than it works. A key with an
 * allowlist is then refused from any address it does not name. Every use of a known key is noted
 * as its own, accepted or refused; the others are guesses.
 */
async function verifyApiKey(
  em: () => EntityManager,
  key: string | null,
  verifiers: Verifiers,
  now: Date,
  request: CredentialsOnRequest,
): Promise<{ principal: KeyPrincipal; bucket?: never } | { principal: null; bucket: RefusalCost }> {
  if (key === null || !isWellFormedApiKey(key)) {
    verifiers.metrics.keyChecked('malformed', 'none');
    return { principal: null, bucket: 'count' };
  }
  const hash = sha256(key);
  let verdict = verifiers.apiKeyCache.lookup(hash);
  const source = verdict === undefined ? 'database' : 'cache';
  if (verdict === undefined) {
    const generation = verifiers.apiKeyCache.generation();
    const stored = await em().getRepository(ApiKey).findByHash(hash);
    verdict = stored && verdictOn(stored, now);
    verifiers.apiKeyCache.store(hash, verdict, generation, stored?.expiresAt?.getTime() ?? null);
  }
  const asked = source === 'database';
  if (verdict === null) {
    verifiers.metrics.keyChecked('unknown', source);
    return { principal: null, bucket: asked ? 'count' : 'none' };
  }
  if (!verdict.usable) {
    verifiers.metrics.keyChecked('stopped', source);
    verifiers.keyUses.refused(verdict.keyId, verdict.reason, now);
    return { principal: null, bucket: asked ? 'touch' : 'none' };
  }
  if (verdict.allowlist !== null && !verdict.allowlist.allows(request.ip)) {
    verifiers.metrics.keyChecked('address_not_allowed', source);
    verifiers.keyUses.refused(verdict.principal.keyId, 'address_not_allowed', now);
    return { principal: null, bucket: asked ? 'touch' : 'none' };
  }
  verifiers.metrics.keyChecked('accepted', source);
  verifiers.keyUses.accepted(verdict.principal.keyId, now, request.ip, request.userAgent);
  return { principal: verdict.principal };
}

/** What a stored key is worth now: who it acts for and from where, or why it stopped. */
function verdictOn(stored: StoredKey, now: Date): KeyVerdict {
  const state = keyStateAt(stored, now);
  if (state.status === 'revoked') return { usable: false, keyId: stored.id, reason: state.reason };
  return { usable: true, principal: keyPrincipal(stored.id, stored.workspaceId), allowlist: AddressAllowlist.of(stored.allowedIps) };
}

/** Frozen: one cached principal is handed to many requests. */
const keyPrincipal = (keyId: string, workspaceId: string): KeyPrincipal => Object.freeze({ kind: 'api_key', keyId, workspaceId });

/** How stale a session's "last seen" may get before a request writes it again. */
export const SESSION_SEEN_EVERY_MS = 5 * 60_000;

async function fromSession(
  em: EntityManager,
  token: string,
  via: 'bearer' | 'cookie',
  now: Date,
  request: Pick<CredentialsOnRequest, 'ip' | 'userAgent'>,
): Promise<Authentication> {
  const failure = { principal: ANONYMOUS, failure: new ApiError('invalid_session'), via };
  if (!isWellFormedSessionToken(token)) return failure;
  const sessions = em.getRepository(Session);
  const stored = await sessions.findByTokenHash(sha256(token));
  if (!stored || stored.revoked) return failure;
  let expiresAt = stored.expiresAt;
  if (expiresAt <= now) return failure;
  if (expiresAt.getTime() - now.getTime() < SESSION_TTL_MS - SESSION_SLIDE_AFTER_MS) {
    expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await sessions.extend(stored.id, expiresAt);
  }
  // When and where it was last used, for its person's list of sessions: written at most every few
  // minutes, so using a session rarely writes.
  if (stored.lastSeenAt === null || now.getTime() - stored.lastSeenAt.getTime() >= SESSION_SEEN_EVERY_MS) {
    await sessions.seen(stored.id, now, { ip: request.ip, userAgent: request.userAgent ?? null });
  }
  return {
    principal: { kind: 'session', userId: stored.userId, sessionId: stored.id, expiresAt, authenticatedAt: stored.authenticatedAt },
    failure: null,
    via,
  };
}
