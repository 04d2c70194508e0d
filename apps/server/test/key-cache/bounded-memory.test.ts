/**
 * Key cache: bounded memory (LFK_KEY_CACHE_SIZE).
 */
import { generateApiKey } from '@lfk/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '@lfk/server/testing';
import { cacheOn, expectAccepted, expectRefused, formBody, probe } from './fixtures.ts';

describe('bounded memory (LFK_KEY_CACHE_SIZE=3)', () => {
  const t = useTestServer({ LFK_KEY_CACHE_SIZE: '3', LFK_KEY_CACHE_TTL: '3600' });
  beforeAll(async () => {
    await cacheOn(t);
  });

  it('holds at most 3 valid and 3 refused keys, and evicted keys still answer correctly', async () => {
    const cache = t.server.services.apiKeyCache;
    const workspaces: { owner: { token: string; workspaceId: string }; formId?: string }[] = [];
    for (let w = 0; w < 2; w++) workspaces.push({ owner: await t.signup() });
    const keys: { key: string; ws: number }[] = [];
    for (let w = 0; w < 2; w++) {
      for (let i = 0; i < 5; i++) keys.push({ key: (await t.createKey(workspaces[w]!.owner.token, workspaces[w]!.owner.workspaceId)).key, ws: w });
    }
    // A form in each workspace, made with that workspace's key: a key must read its own and not the other.
    for (let w = 0; w < 2; w++) {
      const created = await t.request('POST', '/v1/forms', { token: keys.find((k) => k.ws === w)!.key, body: formBody });
      expect(created.status).toBe(201);
      workspaces[w]!.formId = created.json.id;
    }
    const unknown = Array.from({ length: 50 }, () => generateApiKey().key);

    for (let round = 0; round < 3; round++) {
      for (const [i, { key, ws }] of keys.entries()) {
        const own = await t.request('GET', `/v1/forms/${workspaces[ws]!.formId}`, { token: key });
        expect(own.status, `round ${round} key ${i}`).toBe(200);
        expect(own.json.workspace_id).toBe(workspaces[ws]!.owner.workspaceId);
        const foreign = await t.request('GET', `/v1/forms/${workspaces[1 - ws]!.formId}`, { token: key });
        expect(foreign.status, `round ${round} key ${i}`).toBe(404);
        expect(foreign.json.error.code).toBe('form_not_found');
        expect(cache.size.valid).toBeLessThanOrEqual(3);
        // Interleave refused keys, so both kinds churn together.
        for (const bad of unknown.slice(i * 5, i * 5 + 5)) {
          expectRefused(await probe(t, bad));
          expect(cache.size.refused).toBeLessThanOrEqual(3);
        }
      }
      // The cache is in use, filled to its bound, not beyond.
      expect(cache.size).toEqual({ valid: 3, refused: 3 });
    }

    // Every unknown key, evicted long ago, is still refused; every valid key still accepted.
    for (const bad of unknown) expectRefused(await probe(t, bad));
    for (const { key } of keys) expectAccepted(await probe(t, key));
    expect(cache.size).toEqual({ valid: 3, refused: 3 });
  });
});
