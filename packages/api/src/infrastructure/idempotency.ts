import { type Database, IdempotencyRecord } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Context } from '../context.ts';
import { sha256 } from '../credentials/secrets.ts';
import { ApiError } from '../errors.ts';
import type { Log } from '../log.ts';
import type { BackgroundTask } from './background-task.ts';
import { periodic } from './periodic.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** JSON with object keys sorted, so the same request always has the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests the same: the operation and its input. */
const fingerprintOf = (operation: string, input: unknown) => sha256(`${operation}\n${canonicalJson(input)}`);

/** Who is calling: a key, a person, or (anonymous) an address. */
function callerOf(ctx: Context): string {
  const principal = ctx.auth.principal;
  if (principal.kind === 'api_key') return `key:${principal.keyId}`;
  if (principal.kind === 'session') return `user:${principal.userId}`;
  return `ip:${ctx.ip}`;
}

/**
 * Whose keys these are: the caller's, for what the write lands in (a form, a workspace), so the
 * same key sent to two forms is two requests and a caller never sees another's responses.
 * Hashed to fit its column: a forwarded address can be of any length.
 */
function scopeOf(ctx: Context, target: string | null): string {
  return sha256(`${callerOf(ctx)}\n${target ?? ''}`);
}

/** An idempotent write: its name, and the id of what it lands in (null when nothing exists yet). */
export interface IdempotentWrite {
  operation: string;
  target: string | null;
}

export interface Performed<T> {
  /** What this caller gets now. */
  response: T;
  /** What a retry gets: the same, less anything shown only once. */
  replay: T;
}

/**
 * Runs a write in one transaction, once per `Idempotency-Key` of this caller and target (for 24 hours).
 * The key's record is inserted first, so a concurrent retry waits on it and then replays the
 * stored response; the same key with another operation or input is `idempotency_key_reused`.
 * A failed write leaves no record: the retry runs afresh.
 */
export async function runIdempotently<T>(
  ctx: Context,
  { operation, target }: IdempotentWrite,
  input: unknown,
  perform: (em: EntityManager) => Promise<Performed<T>>,
): Promise<T> {
  const key = ctx.idempotencyKey;
  if (key === undefined) return ctx.em.transactional(async (em) => (await perform(em)).response);
  if (!KEY_SHAPE.test(key)) {
    throw new ApiError('invalid_request', {
      details: [{ path: 'Idempotency-Key', message: 'Must be 1 to 255 visible ASCII characters.' }],
    });
  }
  const scope = scopeOf(ctx, target);
  const fingerprint = fingerprintOf(operation, input);
  return ctx.em.transactional(async (em) => {
    const records = em.getRepository(IdempotencyRecord);
    const now = ctx.services.now();
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    const id = await records.claim({ scope, key, fingerprint, expiresAt }, now);
    if (id === null) {
      const existing = await records.findStored(scope, key);
      if (!existing || existing.fingerprint !== fingerprint) throw new ApiError('idempotency_key_reused');
      ctx.headers.set('idempotent-replayed', 'true');
      return existing.responseBody as T;
    }
    const { response, replay } = await perform(em);
    await records.storeResponse(id, replay);
    return response;
  });
}

/**
 * The response stored for this caller's `Idempotency-Key` and this very request, if it completed:
 * for a write that must not repeat a step outside the database before `runIdempotently` replays it
 * (a captcha token is good once, so a retry is answered from here without asking the provider again).
 */
export async function storedReplay<T>(ctx: Context, { operation, target }: IdempotentWrite, input: unknown): Promise<T | null> {
  const key = ctx.idempotencyKey;
  if (key === undefined || !KEY_SHAPE.test(key)) return null;
  const existing = await ctx.em.getRepository(IdempotencyRecord).findStored(scopeOf(ctx, target), key);
  if (!existing || existing.fingerprint !== fingerprintOf(operation, input)) return null;
  ctx.headers.set('idempotent-replayed', 'true');
  return existing.responseBody as T;
}

/** The 'idempotency sweep': drops records past their 24 hours. */
export function idempotencySweep(db: Database, now: () => Date, everyMs: number, log: Log): BackgroundTask {
  return periodic('idempotency sweep', 'sweep expired idempotency records', everyMs, () => db.fork().getRepository(IdempotencyRecord).sweep(now()), log);
}
