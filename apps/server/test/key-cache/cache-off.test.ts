/**
 * Key cache: with the cache off, every answer comes from the database.
 */
import { generateApiKey } from '@lfk/api';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '@lfk/server/testing';
import { badChecksum, comparable, expectAccepted, probe, revoke } from './fixtures.ts';

describe('with the cache off, every answer comes from the database', () => {
  const t = useTestServer({ LFK_KEY_CACHE_TTL: '0' });

  it('refuses unknown, revoked and malformed keys alike, repeatedly, and caches nothing', async () => {
    const { owner, key: revoked, id } = await t.signupWithKey();
    const { key: good } = await t.createKey(owner.token, owner.workspaceId);
    await revoke(t, owner, id);
    const reference = comparable(await probe(t, generateApiKey().key));
    expect(reference.status).toBe(401);
    for (let round = 0; round < 3; round++) {
      for (const key of [generateApiKey().key, revoked, badChecksum(revoked), 'not-a-key']) {
        expect(comparable(await probe(t, key)), key).toEqual(reference);
      }
      expectAccepted(await probe(t, good));
    }
    expect(t.server.services.apiKeyCache.size).toEqual({ valid: 0, refused: 0 });
  });
});
