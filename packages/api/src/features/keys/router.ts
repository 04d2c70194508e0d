import { ApiKey, type IApiKey, isId, isUsableAt, User, Workspace } from '@lfk/db';
import { MAX_ACTIVE_KEYS, noRefusals } from '@lfk/vocabulary';
import { API_KEY_EXPIRY_SECONDS, utcDateOf } from '@lfk/vocabulary';
import { generateApiKey } from '../../credentials/api-key-format.ts';
import { ApiError, invalidField } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import {
  API_KEY_EXPIRY_RANGE_MESSAGE,
  apiKey,
  apiKeyCreateInput,
  apiKeyGetInput,
  apiKeyListInput,
  apiKeyRevokeInput,
  apiKeyRollInput,
  apiKeyUpdateInput,
  apiKeyUsage,
  apiKeyUsageInput,
  createdApiKey,
  currentApiKey,
} from './schemas.ts';
import { listOf } from '../../common-schemas.ts';
import { apiKeyToWire, createdKeyToWire } from './serializers.ts';
import { newKeyRow, usageDays } from './rules.ts';
import { pageNewestFirst } from '../../infrastructure/pagination.ts';
import { confirmedOwnerProcedure, keyProcedure, ownerProcedure, router } from '../../trpc.ts';
import type { EntityManager } from '@mikro-orm/sql';
import { auditByCaller } from '../../infrastructure/audit.ts';

/** Keys as listed, each with its uses this UTC day (one query for the lot). */
async function keysToWire(em: EntityManager, keys: IApiKey[], now: Date) {
  const today = await em.getRepository(ApiKey).usageOn(
    keys.map((k) => k.id),
    utcDateOf(now),
  );
  return keys.map((k) => apiKeyToWire(k, now, today.get(k.id)));
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null) => JSON.stringify(a) === JSON.stringify(b);

/** `expires_at` as asked, checked against the server's clock: 1 hour to 1 year ahead. */
function expiryOf(requested: string | undefined, now: Date): Date | null {
  if (requested === undefined) return null;
  const at = new Date(requested);
  const ahead = (at.getTime() - now.getTime()) / 1000;
  if (!(ahead >= API_KEY_EXPIRY_SECONDS.min && ahead <= API_KEY_EXPIRY_SECONDS.max)) {
    throw invalidField('expires_at', API_KEY_EXPIRY_RANGE_MESSAGE);
  }
  return at;
}

export const apiKeysRouter = router({
  create: confirmedOwnerProcedure
    .meta(
      rest('POST /v1/workspaces/:workspace_id/api-keys', 201, 'Create an API key, optionally expiring; the plaintext key is in this response only', {
        errors: ['api_key_limit_reached'],
        sudo: true,
      }),
    )
    .input(apiKeyCreateInput)
    .output(createdApiKey)
    .mutation(async ({ ctx, input }) => {
      const now = ctx.services.now();
      const expiresAt = expiryOf(input.expires_at, now);
      const { key, hash, prefix } = generateApiKey();
      const created = await ctx.em.transactional(async (em) => {
        // The workspace row lock makes "count, then insert" atomic across requests and replicas.
        await em.getRepository(Workspace).lock(ctx.workspaceId);
        const active = await em.getRepository(ApiKey).countActive(ctx.workspaceId, now);
        if (active >= MAX_ACTIVE_KEYS) throw new ApiError('api_key_limit_reached');
        const by = { workspaceId: ctx.workspaceId, createdBy: ctx.session.userId };
        const chosen = { name: input.name, description: input.description, allowedIps: input.allowed_ips };
        const record = em.getRepository(ApiKey).issue(newKeyRow(by, chosen, { prefix, hash }, expiresAt, now));
        auditByCaller(em, ctx, {
          action: 'api_key.created',
          target: { type: 'api_key', id: record.id },
          data: { name: record.name, prefix, expires_at: expiresAt?.toISOString() ?? null, allowed_ips: record.allowedIps ?? null },
        });
        return record;
      });
      return createdKeyToWire(created, key, ctx.workspaceId);
    }),

  current: keyProcedure
    .meta(rest('GET /v1/api-keys/current', 200, 'The API key this request presents, as it knows itself: an agent holding only a key can ask which one it is'))
    .output(currentApiKey)
    .query(async ({ ctx }) => {
      const found = await ctx.em.getRepository(ApiKey).findOne({ id: ctx.key.keyId });
      // Deleted with its workspace since it was checked: it is no key now.
      if (!found) throw new ApiError('invalid_api_key');
      return {
        id: found.id,
        name: found.name ?? null,
        prefix: found.prefix,
        workspace_id: ctx.key.workspaceId,
        created_at: found.createdAt.toISOString(),
        expires_at: found.expiresAt?.toISOString() ?? null,
        allowed_ips: found.allowedIps ?? null,
      };
    }),

  list: ownerProcedure
    .meta(rest('GET /v1/workspaces/:workspace_id/api-keys', 200, 'List API keys by display prefix, revoked ones included'))
    .input(apiKeyListInput)
    .output(listOf(apiKey))
    .query(async ({ ctx, input }) => {
      const now = ctx.services.now();
      const page = await pageNewestFirst(ctx.em.getRepository(ApiKey), 'key', { workspace: ctx.workspaceId }, input, (k) => k);
      return { data: await keysToWire(ctx.em, page.data, now), next_cursor: page.next_cursor };
    }),

  get: ownerProcedure
    .meta(rest('GET /v1/workspaces/:workspace_id/api-keys/:key_id', 200, 'One API key, as listed', { errors: ['api_key_not_found'] }))
    .input(apiKeyGetInput)
    .output(apiKey)
    .query(async ({ ctx, input }) => {
      const found = await ctx.em.getRepository(ApiKey).findInWorkspace(ctx.workspaceId, input.key_id);
      if (!found) throw new ApiError('api_key_not_found');
      return (await keysToWire(ctx.em, [found], ctx.services.now()))[0]!;
    }),

  /**
   * Renames a key, describes it, or changes where it may be used from; a key that stopped working
   * may still be renamed. A changed allowlist applies to the next request on every replica (the
   * database tells the others). Recorded as `api_key.updated`, with a rename's and an allowlist's
   * before and after.
   */
  update: ownerProcedure
    .meta(
      rest('PATCH /v1/workspaces/:workspace_id/api-keys/:key_id', 200, 'Rename an API key, describe it, or change the addresses it may be used from (owners)', {
        errors: ['api_key_not_found'],
      }),
    )
    .input(apiKeyUpdateInput)
    .output(apiKey)
    .mutation(async ({ ctx, input }) => {
      const { updated, allowlistChanged } = await ctx.em.transactional(async (em) => {
        const found = await em.getRepository(ApiKey).lockInWorkspace(ctx.workspaceId, input.key_id);
        if (!found) throw new ApiError('api_key_not_found');
        const fields: string[] = [];
        const data: { name?: { from: string | null; to: string | null }; allowed_ips?: { from: string[] | null; to: string[] | null } } = {};
        if (input.name !== undefined && input.name !== (found.name ?? null)) {
          fields.push('name');
          data.name = { from: found.name ?? null, to: input.name };
          found.name = input.name;
        }
        if (input.description !== undefined && input.description !== (found.description ?? null)) {
          fields.push('description');
          found.description = input.description;
        }
        if (input.allowed_ips !== undefined && !sameList(input.allowed_ips, found.allowedIps ?? null)) {
          fields.push('allowed_ips');
          data.allowed_ips = { from: found.allowedIps ?? null, to: input.allowed_ips };
          found.allowedIps = input.allowed_ips;
        }
        if (fields.length > 0) {
          auditByCaller(em, ctx, { action: 'api_key.updated', target: { type: 'api_key', id: found.id }, data: { fields, ...data } });
        }
        return { updated: found, allowlistChanged: fields.includes('allowed_ips') };
      });
      // This process re-reads the key at once; the others are told by the database.
      if (allowlistChanged) ctx.services.apiKeyCache.forget(updated.keyHash);
      return (await keysToWire(ctx.em, [updated], ctx.services.now()))[0]!;
    }),

  /**
   * A new key with the old one's name, its plaintext shown once. The old key keeps working for
   * `grace_seconds`, then is revoked (`rolled`); with no grace it is revoked in this transaction,
   * so the roll never needs a free slot. During a grace both keys count toward the limit.
   */
  roll: confirmedOwnerProcedure
    .meta(
      rest('POST /v1/workspaces/:workspace_id/api-keys/:key_id/roll', 201, 'Replace an API key with a new one; the old key works until the grace period ends', {
        errors: ['api_key_not_found', 'api_key_revoked', 'api_key_already_rolled', 'api_key_limit_reached'],
        sudo: true,
      }),
    )
    .input(apiKeyRollInput)
    .output(createdApiKey)
    .mutation(async ({ ctx, input }) => {
      if (!isId('key', input.key_id)) throw new ApiError('api_key_not_found');
      const now = ctx.services.now();
      const { key, hash, prefix } = generateApiKey();
      const { next, oldHash } = await ctx.em.transactional(async (em) => {
        await em.getRepository(Workspace).lock(ctx.workspaceId);
        const keys = em.getRepository(ApiKey);
        const old = await keys.lockInWorkspace(ctx.workspaceId, input.key_id);
        if (!old) throw new ApiError('api_key_not_found');
        if (!isUsableAt(old, now)) throw new ApiError('api_key_revoked');
        if (old.rolledTo) throw new ApiError('api_key_already_rolled');
        if (input.grace_seconds > 0 && (await keys.countActive(ctx.workspaceId, now)) >= MAX_ACTIVE_KEYS) {
          throw new ApiError('api_key_limit_reached');
        }
        // The expiry policy carries over: the one asked for, else the old key's lifetime from now.
        const expiresAt =
          expiryOf(input.expires_at, now) ?? (old.expiresAt ? new Date(now.getTime() + (old.expiresAt.getTime() - old.createdAt.getTime())) : null);
        const next = keys.issue(newKeyRow({ workspaceId: ctx.workspaceId, createdBy: ctx.session.userId }, old, { prefix, hash }, expiresAt, now));
        old.rolledTo = next.id;
        let revokesAt = now;
        if (input.grace_seconds === 0) {
          old.revokedAt = now;
          old.revokedReason = 'rolled';
          old.revokedBy = em.getReference(User, ctx.session.userId);
        } else {
          const graceEnd = new Date(now.getTime() + input.grace_seconds * 1000);
          revokesAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
          old.expiresAt = revokesAt;
        }
        auditByCaller(em, ctx, {
          action: 'api_key.created',
          target: { type: 'api_key', id: next.id },
          data: { name: next.name, prefix, expires_at: expiresAt?.toISOString() ?? null, allowed_ips: next.allowedIps ?? null, rolled_from: old.id },
        });
        auditByCaller(em, ctx, {
          action: 'api_key.rolled',
          target: { type: 'api_key', id: old.id },
          data: { rolled_to: next.id, grace_seconds: input.grace_seconds, revokes_at: revokesAt.toISOString() },
        });
        return { next, oldHash: old.keyHash };
      });
      // This process re-reads the old key at once (revoked, or with its new end); the others are told by the database.
      ctx.services.apiKeyCache.forget(oldHash);
      return createdKeyToWire(next, key, ctx.workspaceId);
    }),

  usage: ownerProcedure
    .meta(
      rest(
        'GET /v1/workspaces/:workspace_id/api-keys/:key_id/usage',
        200,
        'Requests that presented the key per UTC day, accepted and refused by why (written in batches: the last few seconds may not show yet)',
        { errors: ['api_key_not_found'] },
      ),
    )
    .input(apiKeyUsageInput)
    .output(apiKeyUsage)
    .query(async ({ ctx, input }) => {
      const keys = ctx.em.getRepository(ApiKey);
      if (!(await keys.existsInWorkspace(ctx.workspaceId, input.key_id))) throw new ApiError('api_key_not_found');
      const days = usageDays(ctx.services.now(), input.days);
      const counted = await keys.usageOf(input.key_id, days[0]!, days[days.length - 1]!);
      const byDate = new Map(counted.map((c) => [c.date, c]));
      return {
        data: days.map((date) => {
          const day = byDate.get(date);
          return { date, requests: day?.accepted ?? 0, refused: day?.refused ?? noRefusals() };
        }),
      };
    }),

  /**
   * Soft: the record stays for audit and in lists. Revoking a revoked (or expired) key changes nothing.
   * This process forgets the key at once; the others hear of it from the database (see revocation-listener.ts).
   */
  revoke: ownerProcedure
    .meta(
      rest('DELETE /v1/workspaces/:workspace_id/api-keys/:key_id', 204, 'Revoke an API key (soft; idempotent)', {
        errors: ['api_key_not_found'],
      }),
    )
    .input(apiKeyRevokeInput)
    .mutation(async ({ ctx, input }) => {
      if (!isId('key', input.key_id)) throw new ApiError('api_key_not_found');
      const now = ctx.services.now();
      const revokedHash = await ctx.em.transactional(async (em) => {
        const revokedHash = await em.getRepository(ApiKey).revoke(input.key_id, ctx.workspaceId, ctx.session.userId, now);
        if (revokedHash === null) {
          if (!(await em.getRepository(ApiKey).existsInWorkspace(ctx.workspaceId, input.key_id))) throw new ApiError('api_key_not_found');
          return null;
        }
        auditByCaller(em, ctx, { action: 'api_key.revoked', target: { type: 'api_key', id: input.key_id } });
        return revokedHash;
      });
      if (revokedHash !== null) ctx.services.apiKeyCache.forget(revokedHash);
    }),
});
