/**
 * A submission carrying a bad or rate-held key is refused on its credentials alone: the form is
 * never looked up for it. Shown by taking the forms table away and asking again: the answer is
 * the same refusal, not a database failure.
 */
import { generateApiKey } from '@lfk/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { createContactForm, expectError, ORIGIN, submit, submitOverTrpc, useTestServer, VALID } from '@lfk/server/testing';

const HELD = '203.0.113.9';

// A database of its own: a test here renames the forms table under the server.
const t = useTestServer({ LFK_RATE_LIMIT_KEY_FAILURES: '2/1h', LFK_TRUST_PROXY: '127.0.0.1' }, { database: 'own' });
let formId: string;
let revokedKey: string;
let goodKey: string;

beforeAll(async () => {
  const owner = await t.signup();
  formId = (await createContactForm(t, owner, { submission_mode: 'api_key', allowed_origins: [] })).id;
  goodKey = (await t.createKey(owner.token, owner.workspaceId)).key;
  const revoked = await t.createKey(owner.token, owner.workspaceId);
  await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${revoked.id}`, { token: owner.token });
  revokedKey = revoked.key;
});

/** Runs `check` while the forms table cannot be read, and puts it back afterwards. */
async function withoutFormsTable(check: () => Promise<void>): Promise<void> {
  await t.sql('alter table forms rename to forms_unavailable');
  try {
    await check();
  } finally {
    await t.sql('alter table forms_unavailable rename to forms');
  }
}

describe('credentials are judged before the form is read', () => {
  it('malformed, unknown and revoked keys → 401 invalid_api_key without touching forms, on REST and tRPC', async () => {
    await withoutFormsTable(async () => {
      // Each from its own address, so none is held back for the others' failures.
      for (const [i, key] of ['lfk_not-a-key', generateApiKey().key, revokedKey].entries()) {
        expectError(await submit(t, formId, VALID, { token: key, origin: ORIGIN, ip: `198.51.100.${i}` }), 401, 'invalid_api_key');
        expectError(await submitOverTrpc(t, formId, VALID, { token: key, ip: `198.51.100.${10 + i}` }), 401, 'invalid_api_key');
      }
    });
  });

  it('an address held back for bad keys → 429 without touching forms, even with a good key', async () => {
    for (let i = 0; i < 2; i++) {
      expectError(await submit(t, formId, VALID, { token: generateApiKey().key, ip: HELD }), 401, 'invalid_api_key');
    }
    await withoutFormsTable(async () => {
      const held = await submit(t, formId, VALID, { token: goodKey, ip: HELD });
      expectError(held, 429, 'rate_limited');
      expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });
    // With the table back, the same key from another address submits.
    const ok = await submit(t, formId, VALID, { token: goodKey, ip: '198.51.100.99' });
    expect(ok.status, ok.body).toBe(201);
  });
});
