/**
 * Key cache: a key revoked behind the server's back (PGlite: nothing is notified) is trusted no longer than the TTL.
 */
import { describe, expect, it } from 'vitest';
import { startTestServer, TEST_DATABASE_URL, until } from '@lfk/server/testing';
import { expectAccepted, expectRefused, probe } from './fixtures.ts';

describe.runIf(!TEST_DATABASE_URL)("revoked behind the server's back (PGlite: nothing is notified)", () => {
  it('with LFK_KEY_CACHE_TTL=1 the key is served from memory, then refused once the TTL has passed', async () => {
    const t = await startTestServer({ LFK_KEY_CACHE_TTL: '1' });
    try {
      const { owner, key, id } = await t.signupWithKey();
      expectAccepted(await probe(t, key));
      await t.sql('update api_keys set revoked_at = now() where id = ?', [id]);
      // The database says revoked; memory (trusted for a second) still says valid.
      expectAccepted(await probe(t, key));
      await until('the revoked key to be refused', async () => (await probe(t, key)).status === 401);
      expectRefused(await probe(t, key));
      // The cache still works for other keys.
      const { key: other } = await t.createKey(owner.token, owner.workspaceId);
      expectAccepted(await probe(t, other));
      expect(t.server.services.apiKeyCache.size.valid).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });

  it.each<Record<string, string>>([{ LFK_KEY_CACHE_TTL: '0' }, { LFK_KEY_CACHE_SIZE: '0', LFK_KEY_CACHE_TTL: '3600' }])(
    'with the cache off (%o) a raw SQL revoke is seen on the very next request',
    async (env) => {
      const t = await startTestServer(env);
      try {
        const { key, id } = await t.signupWithKey();
        expectAccepted(await probe(t, key));
        expectAccepted(await probe(t, key));
        await t.sql('update api_keys set revoked_at = now() where id = ?', [id]);
        expectRefused(await probe(t, key));
        expect(t.server.services.apiKeyCache.size).toEqual({ valid: 0, refused: 0 });
      } finally {
        await t.close();
      }
    },
  );
});
