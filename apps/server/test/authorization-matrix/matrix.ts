/**
 * Authorization matrix: every REST route of `restRoutes` × every kind of caller → the status and
 * error code the API documents (the OpenAPI document, the README) (or the success status and one meaningful body property).
 *
 * The matrix is data (`MATRIX`, one row per route naming its access), declared by each feature beside
 * its procedures (packages/api/src/features/<f>/<f>.access-cases.ts) and folded by
 * packages/api/src/test-tables/; the files beside this one run its cells, on the world made here. A
 * route added to `restRoutes` without a row fails packages/api's coverage check (test-tables.test.ts,
 * in seconds) and the coverage test here, so no route can be forgotten.
 *
 * Callers send credentials as `Authorization: Bearer …`. A presented credential that is refused
 * (expired or signed-out session, revoked or malformed key) is refused on every route, the public
 * ones included: `invalid_session` / `invalid_api_key` belong to the credential, not to
 * the route.
 */
import { createHash } from 'node:crypto';
import { bindAccessTables, type Caller, formBody, login, type World } from '@lfk/api/test-tables/access';
import { beforeAll } from 'vitest';
import { createForm, type Res, submitMultipart, type TestServer, useTestServer } from '@lfk/server/testing';

export { MATRIX } from '@lfk/api/test-tables';
export { CALLERS } from '@lfk/api/test-tables/access';
export { type Caller, formBody };

export let t: TestServer;
export let w: World;

// ---------------------------------------------------------------------------------------------
// Machinery
// ---------------------------------------------------------------------------------------------

/** Error pages (HTML) carry their code in `<meta name="lfk-error-code">`. */
export function errorCodeOf(res: Res): string | undefined {
  return res.json?.error?.code ?? /<meta name="lfk-error-code" content="([a-z_]+)">/.exec(res.body)?.[1];
}

export function tokenOf(world: World, caller: Caller): string | undefined {
  switch (caller) {
    case 'no_credentials':
      return undefined;
    case 'owner_session':
      return world.owner.token;
    case 'member_session':
      return world.member.token;
    case 'outsider_session':
      return world.outsider.token;
    case 'expired_session':
      return world.expiredToken;
    case 'signed_out_session':
      return world.signedOutToken;
    case 'workspace_key':
      return world.key.key;
    case 'other_workspace_key':
      return world.otherKey.key;
    case 'revoked_key':
      return world.revokedKey;
    case 'malformed_bearer':
      return 'not-a-key';
    case 'bad_checksum_key':
      return world.badChecksumKey;
  }
}

export { urlOf } from '../path-params.ts';

/**
 * The world every cell acts in, for the test file: a server on a fresh database with W's owner,
 * member and keys, an outsider, refused credentials, and W's forms; made before the file's tests,
 * closed after them.
 */
export function useWorld(): void {
  t = useTestServer();
  beforeAll(async () => {
    // The rows (packages/api) run against this server and the harness's helpers, which a package may not import.
    bindAccessTables(t, { createForm, submitMultipart });
    const { owner, member, outsider } = await t.signupTeam();
    const ws = owner.workspaceId;

    const key = await t.createKey(owner.token, ws, 'matrix');
    const otherKey = await t.createKey(outsider.token, outsider.workspaceId, 'other workspace');
    const revoked = await t.createKey(owner.token, ws, 'revoked');
    const revoke = await t.request('DELETE', `/v1/workspaces/${ws}/api-keys/${revoked.id}`, { token: owner.token });
    if (revoke.status !== 204) throw new Error(`revoke failed: ${revoke.status} ${revoke.body}`);
    const last = key.key.at(-1)!;
    const badChecksumKey = key.key.slice(0, -1) + (last === 'A' ? 'B' : 'A');

    const expiredToken = await login(owner.email);
    await t.sql('update sessions set expires_at = ? where token_hash = ?', [
      new Date(Date.now() - 60_000).toISOString(),
      createHash('sha256').update(expiredToken).digest('hex'),
    ]);
    const signedOutToken = await login(owner.email);
    const logout = await t.request('POST', '/v1/auth/logout', { token: signedOutToken });
    if (logout.status !== 204) throw new Error(`logout failed: ${logout.status} ${logout.body}`);

    const formId = (await createForm(t, key.key, formBody)).id;
    const apiKeyFormId = (await createForm(t, key.key, { ...formBody, submission_mode: 'api_key' })).id;

    w = {
      owner,
      member,
      outsider,
      ws,
      key,
      otherKey,
      revokedKey: revoked.key,
      expiredToken,
      signedOutToken,
      badChecksumKey,
      formId,
      apiKeyFormId,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The one loop
// ---------------------------------------------------------------------------------------------

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
