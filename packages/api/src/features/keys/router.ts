import { ApiKey, AuditEvent, isId, MAX_ACTIVE_KEYS, newId, Workspace } from '@lfk/db';
import { generateApiKey } from '../../credentials/api-key-format.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { apiKey, apiKeyCreateInput, apiKeyListInput, apiKeyRevokeInput, createdApiKey } from './schemas.ts';
import { listOf } from '../../common-schemas.ts';
import { apiKeyToWire } from './serializers.ts';
import { pageNewestFirst } from '../../infrastructure/pagination.ts';
import { ownerProcedure, router } from '../../trpc.ts';

export const apiKeysRouter = router({
  create: ownerProcedure.meta(rest('POST /v1/workspaces/:workspace_id/api-keys', 201,
      'Create an API key; the plaintext key is in this response only'))
    .input(apiKeyCreateInput)
    .output(createdApiKey)
    .mutation(async ({ ctx, input }) => {
      const { key, hash, prefix } = generateApiKey();
      const created = await ctx.em.transactional(async (em) => {
        // The workspace row lock makes "count, then insert" atomic across requests and replicas.
        await em.getRepository(Workspace).lock(ctx.workspaceId);
        const active = await em.getRepository(ApiKey).countActive(ctx.workspaceId);
        if (active >= MAX_ACTIVE_KEYS) throw new ApiError('api_key_limit_reached');
        const record = em.create(ApiKey, {
          id: newId('key'),
          workspace: ctx.workspaceId,
          name: input.name ?? null,
          prefix,
          keyHash: hash,
          createdBy: ctx.session.userId,
          lastUsedAt: null,
          revokedAt: null,
          revokedBy: null,
        });
        em.getRepository(AuditEvent).record({
          workspaceId: ctx.workspaceId,
          action: 'api_key.created',
          actor: ctx.actor,
          target: { type: 'api_key', id: record.id },
          data: { name: record.name, prefix },
        });
        return record;
      });
      return {
        id: created.id,
        name: created.name ?? null,
        prefix: created.prefix,
        key,
        status: 'active' as const,
        workspace_id: ctx.workspaceId,
        created_by: ctx.session.userId,
        created_at: created.createdAt.toISOString(),
      };
    }),

  list: ownerProcedure.meta(rest('GET /v1/workspaces/:workspace_id/api-keys', 200,
      'List API keys by display prefix, revoked ones included'))
    .input(apiKeyListInput)
    .output(listOf(apiKey))
    .query(({ ctx, input }) => pageNewestFirst(ctx.em, ApiKey, 'key', { workspace: ctx.workspaceId }, input, apiKeyToWire)),

  /**
   * Soft: the record stays for audit and in lists. Revoking a revoked key changes nothing.
   * This process forgets the key at once; the others hear of it from the database (see key-revocations.ts).
   */
  revoke: ownerProcedure.meta(
    rest('DELETE /v1/workspaces/:workspace_id/api-keys/:key_id', 204, 'Revoke an API key (soft; idempotent)'),
  ).input(apiKeyRevokeInput).mutation(async ({ ctx, input }) => {
    if (!isId('key', input.key_id)) throw new ApiError('api_key_not_found');
    const revokedHash = await ctx.em.transactional(async (em) => {
      const revokedHash = await em.getRepository(ApiKey).revoke(input.key_id, ctx.workspaceId, ctx.session.userId);
      if (revokedHash === null) {
        if (!(await em.count(ApiKey, { id: input.key_id, workspace: ctx.workspaceId }))) {
          throw new ApiError('api_key_not_found');
        }
        return null;
      }
      em.getRepository(AuditEvent).record({
        workspaceId: ctx.workspaceId,
        action: 'api_key.revoked',
        actor: ctx.actor,
        target: { type: 'api_key', id: input.key_id },
      });
      return revokedHash;
    });
    if (revokedHash !== null) ctx.services.apiKeyCache.forget(revokedHash);
  }),
});
