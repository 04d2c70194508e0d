/**
 * REST and tRPC are two doors to the same procedures (the rule that "the tRPC procedures return the
 * very same objects, so the bridge is a pass-through"). The same call with the same credentials
 * must answer the same object through both: REST's body = tRPC's `result.data`, and for errors the
 * same status and REST's `error` = tRPC's `error.data` minus `httpStatus`.
 */
import { restRoutes } from '@lfk/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, linkTokenSentTo, PASSWORD, type Res, type RequestOptions, until, useTestServer } from '@lfk/server/testing';

const t = useTestServer();
let owner: Account;
let member: Account;
let outsider: Account;
let key: string;
let keyId: string;

/** A form body wrong in many ways at once: both doors must list the same details. */
const severalSchemaProblems = {
  name: '',
  schema: [
    { name: 'a', type: 'select' },
    { name: 'a', type: 'bogus' },
    { name: '9', type: 'text', options: ['x'], required: 'yes' },
  ],
  allowed_origins: ['https://example.com/path', 'ftp://example.com'],
  extra: true,
};

const formBody = {
  name: 'Contact',
  schema: [
    { name: 'email', type: 'email', required: true, label: 'Your email' },
    { name: 'topic', type: 'select', options: ['sales', 'support'] },
  ],
  allowed_origins: ['https://example.com'],
};

beforeAll(async () => {
  ({ owner, member, outsider } = await t.signupTeam());
  ({ key, id: keyId } = await t.createKey(owner.token, owner.workspaceId, 'parity'));
});

// ---------------------------------------------------------------------------------------------
// Calling tRPC over HTTP, and reading its envelopes.
// ---------------------------------------------------------------------------------------------

function auth(token: string | undefined, extra: RequestOptions = {}): RequestOptions {
  return { ...(token ? { token } : {}), ...extra };
}

/** A query: `GET /trpc/<path>?input=<urlencoded JSON>`. */
function trpcQuery(path: string, input: unknown, token: string | undefined, extra: RequestOptions = {}): Promise<Res> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return t.request('GET', `/trpc/${path}${query}`, auth(token, extra));
}

/** A mutation: `POST /trpc/<path>` with a JSON body. */
function trpcMutation(path: string, input: unknown, token: string | undefined, extra: RequestOptions = {}): Promise<Res> {
  return t.request('POST', `/trpc/${path}`, auth(token, { ...extra, ...(input === undefined ? {} : { body: input }) }));
}

/** `{ result: { data } }` → data. */
function dataOf(res: Res, what = ''): Res['json'] {
  expect(res.status, `${what} ${res.body.slice(0, 400)}`).toBe(200);
  expect(res.headers['x-request-id'], what).toBeTypeOf('string');
  expect(Object.keys(res.json), what).toEqual(['result']);
  expect(Object.keys(res.json.result), what).toEqual(['data']);
  return res.json.result.data;
}

/** A REST success with its documented status → the body. */
function bodyOf(res: Res, status: number, what = ''): Res['json'] {
  expect(res.status, `${what} ${res.body.slice(0, 400)}`).toBe(status);
  expect(res.headers['x-request-id'], what).toBeTypeOf('string');
  return res.json;
}

/**
 * The same error through both doors: same status, REST `error` (minus request_id) equal to tRPC
 * `error.data` (minus httpStatus and request_id), each request_id equal to its `x-request-id`.
 */
function expectSameError(rest: Res, trpc: Res, status: number, code: string, what = ''): Record<string, unknown> {
  const label = `${what}\nREST ${rest.status} ${rest.body.slice(0, 400)}\ntRPC ${trpc.status} ${trpc.body.slice(0, 400)}`;
  expect(rest.status, label).toBe(status);
  expect(trpc.status, label).toBe(status);

  expect(Object.keys(rest.json), label).toEqual(['error']);
  const { request_id: restRequestId, ...restError } = rest.json.error;
  expect(restRequestId, label).toBe(rest.headers['x-request-id']);
  expect(restError.code, label).toBe(code);

  expect(Object.keys(trpc.json), label).toEqual(['error']);
  const { error } = trpc.json;
  expect(Object.keys(error).sort(), label).toEqual(['code', 'data', 'message']);
  expect(typeof error.code, label).toBe('number');
  const { httpStatus, request_id: trpcRequestId, ...trpcError } = error.data;
  expect(httpStatus, label).toBe(status);
  expect(trpcRequestId, label).toBe(trpc.headers['x-request-id']);
  expect(error.message, label).toBe(trpcError.message);

  expect(trpcError, label).toEqual(restError);
  return restError;
}

/** A form minus what differs between two separately created forms. */
function sansIdentity(form: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, created_at: _c, updated_at: _u, ...rest } = form;
  return rest;
}

// ---------------------------------------------------------------------------------------------
// Successes.
// ---------------------------------------------------------------------------------------------

describe('the same reads answer the same objects', () => {
  it('workspaces.list (a signup-created session)', async () => {
    await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'Second 🌍' } });
    const rest = bodyOf(await t.request('GET', '/v1/workspaces', { token: owner.token }), 200);
    const trpc = dataOf(await trpcQuery('workspaces.list', {}, owner.token));
    expect(rest.data.length).toBeGreaterThanOrEqual(2);
    expect(trpc).toEqual(rest);

    const restPage = bodyOf(await t.request('GET', '/v1/workspaces?limit=1', { token: owner.token }), 200);
    const trpcPage = dataOf(await trpcQuery('workspaces.list', { limit: 1 }, owner.token));
    expect(restPage.next_cursor).toEqual(expect.any(String));
    expect(trpcPage).toEqual(restPage);

    const cursor = restPage.next_cursor as string;
    const restNext = bodyOf(await t.request('GET', `/v1/workspaces?limit=1&cursor=${cursor}`, { token: owner.token }), 200);
    const trpcNext = dataOf(await trpcQuery('workspaces.list', { limit: 1, cursor }, owner.token));
    expect(trpcNext).toEqual(restNext);
  });

  it('auth.session', async () => {
    const rest = bodyOf(await t.request('GET', '/v1/auth/session', { token: owner.token }), 200);
    const trpc = dataOf(await trpcQuery('auth.session', undefined, owner.token));
    expect(rest.user).toMatchObject({ id: owner.userId, email: owner.email });
    expect(trpc).toEqual(rest);
  });

  it('every GET route of the REST table answers what its tRPC query answers', async () => {
    // Browser mode on a page's origin, keeping drafts: a page's reads are among the routes walked.
    const page = { headers: { origin: 'https://parity.example' } };
    const form = bodyOf(
      await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins: [page.headers.origin], drafts: { enabled: true } } }),
      201,
    );
    const draft = bodyOf(await t.request('POST', `/v1/forms/${form.id}/drafts`, { ...page, body: { data: { email: 'parity@' } } }), 201);
    // A webhook endpoint (to a name that never resolves) before the submission, so the submission queues a delivery.
    const webhook = bodyOf(await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: key, body: { url: 'https://hooks.lfk.invalid/parity' } }), 201);
    const submission = bodyOf(await t.request('POST', `/v1/forms/${form.id}/submissions`, { token: key, body: { email: 'parity@example.org' } }), 201);
    // Its first attempt fails; once recorded, the delivery is written down as failed for good, so no
    // attempt changes it (or the endpoint's last delivery) between the two doors' reads.
    const deliveryId = await until("the delivery's first attempt", async () => {
      const [row] = await t.sql<{ id: string }>(
        'select id from webhook_deliveries where endpoint_id = ? and locked_until is null and jsonb_array_length(attempts) > 0',
        [webhook.id],
      );
      return row?.id;
    });
    await t.sql("update webhook_deliveries set status = 'failed', next_attempt_at = null where id = ?", [deliveryId]);
    const deviceLogin = bodyOf(await t.request('POST', '/v1/auth/device-logins', { body: {} }), 201);
    bodyOf(
      await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: 'parity-invitee@example.org' } }),
      202,
    );
    const params: Record<string, string> = {
      token: await linkTokenSentTo(t, 'parity-invitee@example.org', 'invitation'),
      workspace_id: owner.workspaceId,
      form_id: form.id,
      submission_id: submission.id,
      user_code: deviceLogin.user_code,
      key_id: keyId,
      webhook_id: webhook.id,
      resume_token: draft.resume_token,
    };
    // The email links answer HTML pages, not JSON objects.
    // The export and a file's bytes answer a file, streamed: REST only (over /trpc the export is refused, see inbox/export.test.ts).
    const gets = restRoutes.filter(
      (r) => r.method === 'GET' && r.transport !== 'html' && r.transport !== 'password_reset' && r.transport !== 'export' && r.transport !== 'file',
    );
    expect(gets.length).toBeGreaterThanOrEqual(7);
    // The events feed read from the submission's own event: what it answers does not move (its cursor of now would).
    const queries: Record<string, Record<string, string>> = { 'webhooks.events': { after: `msg_${submission.id.slice('sub_'.length)}` } };
    for (const route of gets) {
      const input: Record<string, string> = { ...queries[route.procedure] };
      const path = route.path.replace(/:(\w+)/g, (_m, name: string) => {
        input[name] = params[name]!;
        return params[name]!;
      });
      const url = queries[route.procedure] ? `${path}?${new URLSearchParams(queries[route.procedure])}` : path;
      // A form is read with a key, and a key asks of itself; everything else with the owner's session.
      const token = route.procedure === 'forms.get' || route.access === 'api_key' ? key : owner.token;
      // A page's reads come from the page.
      const from = route.transport === 'browser' ? page : {};
      const rest = bodyOf(await t.request('GET', url, { token, ...from }), route.status, route.procedure);
      const trpcInput = route.input === null ? undefined : input;
      const trpc = dataOf(await trpcQuery(route.procedure, trpcInput, token, from), route.procedure);
      expect(trpc, route.procedure).toEqual(rest);
    }
  });
});

describe('the same writes answer the same objects', () => {
  it('apiKeys.create then apiKeys.list', async () => {
    const ws = bodyOf(await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'keys' } }), 201);
    const rest = bodyOf(await t.request('POST', `/v1/workspaces/${ws.id}/api-keys`, { token: owner.token, body: { name: 'ci 🔑' } }), 201);
    const trpc = dataOf(await trpcMutation('apiKeys.create', { workspace_id: ws.id, name: 'ci 🔑' }, owner.token));

    // Two different keys, the same object otherwise.
    expect(Object.keys(trpc).sort()).toEqual(Object.keys(rest).sort());
    const identity = ({ id: _i, key: _k, prefix: _p, created_at: _c, ...same }: Record<string, unknown>) => same;
    expect(identity(trpc)).toEqual(identity(rest));
    expect(identity(rest)).toEqual({
      name: 'ci 🔑',
      description: null,
      status: 'active',
      allowed_ips: null,
      workspace_id: ws.id,
      created_by: owner.userId,
      expires_at: null,
    });
    expect(trpc.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    expect(trpc.prefix).toBe(trpc.key.slice(0, 10));
    expect(trpc.id).not.toBe(rest.id);

    // Both keys are listed, alike through both doors, and neither list holds a plaintext key.
    const restList = await t.request('GET', `/v1/workspaces/${ws.id}/api-keys`, { token: owner.token });
    const trpcList = await trpcQuery('apiKeys.list', { workspace_id: ws.id }, owner.token);
    expect(dataOf(trpcList)).toEqual(bodyOf(restList, 200));
    expect(restList.json.data.map((k: { id: string }) => k.id)).toEqual([trpc.id, rest.id]);
    for (const body of [restList.body, trpcList.body]) {
      expect(body).not.toContain(rest.key);
      expect(body).not.toContain(trpc.key);
    }
  });

  it('forms.create with a key, then forms.get of each form through both doors', async () => {
    const rest = bodyOf(await t.request('POST', '/v1/forms', { token: key, body: formBody }), 201);
    const trpc = dataOf(await trpcMutation('forms.create', formBody, key));
    expect(sansIdentity(trpc)).toEqual(sansIdentity(rest));
    expect(rest).toMatchObject({ workspace_id: owner.workspaceId, state: 'claimed', name: 'Contact' });

    for (const created of [rest, trpc]) {
      const restGet = bodyOf(await t.request('GET', `/v1/forms/${created.id}`, { token: key }), 200);
      const trpcGet = dataOf(await trpcQuery('forms.get', { form_id: created.id }, key));
      expect(trpcGet).toEqual(restGet);
      expect(restGet).toEqual(created);
      // A member's session reads the very same object.
      expect(dataOf(await trpcQuery('forms.get', { form_id: created.id }, member.token))).toEqual(restGet);
    }
  });

  it('forms.update through both doors leaves the same form, read back through both', async () => {
    const form = bodyOf(await t.request('POST', '/v1/forms', { token: key, body: formBody }), 201);
    const patch = { name: 'Renamed', allowed_origins: ['https://Example.com:443', 'http://localhost:3000'], redirect_url: 'https://example.com/thanks' };

    const viaRest = bodyOf(await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: patch }), 200);
    const readAfterRest = dataOf(await trpcQuery('forms.get', { form_id: form.id }, key));
    expect(readAfterRest).toEqual(viaRest);

    const viaTrpc = dataOf(await trpcMutation('forms.update', { form_id: form.id, ...patch, name: 'Renamed again' }, key));
    const readAfterTrpc = bodyOf(await t.request('GET', `/v1/forms/${form.id}`, { token: key }), 200);
    expect(readAfterTrpc).toEqual(viaTrpc);

    const { name: restName, updated_at: _ru, ...restRest } = viaRest;
    const { name: trpcName, updated_at: _tu, ...trpcRest } = viaTrpc;
    expect([restName, trpcName]).toEqual(['Renamed', 'Renamed again']);
    expect(trpcRest).toEqual(restRest);
    expect(viaTrpc.allowed_origins).toEqual(['https://example.com', 'http://localhost:3000']);

    // An update that changes nothing is the same read through both.
    const restNoop = bodyOf(await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: {} }), 200);
    const trpcNoop = dataOf(await trpcMutation('forms.update', { form_id: form.id }, key));
    expect(trpcNoop).toEqual(restNoop);
    expect(restNoop).toEqual(readAfterTrpc);
  });

  it('workspaces.create and projects.create answer alike', async () => {
    const rest = bodyOf(await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'Twin' } }), 201);
    const trpc = dataOf(await trpcMutation('workspaces.create', { name: 'Twin' }, owner.token));
    const sansId = ({ id: _i, created_at: _c, ...same }: Record<string, unknown>) => same;
    expect(sansId(trpc)).toEqual(sansId(rest));
    expect(rest).toMatchObject({ name: 'Twin', role: 'owner' });

    const restProject = bodyOf(await t.request('POST', `/v1/workspaces/${rest.id}/projects`, { token: owner.token, body: { name: 'P' } }), 201);
    const trpcProject = dataOf(await trpcMutation('projects.create', { workspace_id: rest.id, name: 'P' }, owner.token));
    expect(sansId(trpcProject)).toEqual(sansId(restProject));
  });
});

// ---------------------------------------------------------------------------------------------
// Errors.
// ---------------------------------------------------------------------------------------------

describe('the same failures answer the same errors', () => {
  it('apiKeys.list by a member → 403 owner_required', async () => {
    const rest = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: member.token });
    const trpc = await trpcQuery('apiKeys.list', { workspace_id: owner.workspaceId }, member.token);
    expectSameError(rest, trpc, 403, 'owner_required');
  });

  it('apiKeys.create by a member → 403 owner_required; by a key → 403 session_required', async () => {
    const url = `/v1/workspaces/${owner.workspaceId}/api-keys`;
    expectSameError(
      await t.request('POST', url, { token: member.token, body: { name: 'x' } }),
      await trpcMutation('apiKeys.create', { workspace_id: owner.workspaceId, name: 'x' }, member.token),
      403,
      'owner_required',
    );
    expectSameError(
      await t.request('GET', url, { token: key }),
      await trpcQuery('apiKeys.list', { workspace_id: owner.workspaceId }, key),
      403,
      'session_required',
    );
  });

  it('forms.get and forms.create with a revoked key → 401 invalid_api_key', async () => {
    const { key: doomed, id } = await t.createKey(owner.token, owner.workspaceId, 'doomed');
    const form = bodyOf(await t.request('POST', '/v1/forms', { token: doomed, body: formBody }), 201);
    const revoked = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
    expect(revoked.status).toBe(204);
    expectSameError(
      await t.request('GET', `/v1/forms/${form.id}`, { token: doomed }),
      await trpcQuery('forms.get', { form_id: form.id }, doomed),
      401,
      'invalid_api_key',
      'forms.get',
    );
    expectSameError(
      await t.request('POST', '/v1/forms', { token: doomed, body: formBody }),
      await trpcMutation('forms.create', formBody, doomed),
      401,
      'invalid_api_key',
      'forms.create',
    );
  });

  it('no credentials → 401 unauthenticated; a bad session → 401 invalid_session', async () => {
    expectSameError(await t.request('GET', '/v1/workspaces'), await trpcQuery('workspaces.list', {}, undefined), 401, 'unauthenticated');
    expectSameError(
      await t.request('GET', '/v1/auth/session', { token: 'lfs_nope' }),
      await trpcQuery('auth.session', undefined, 'lfs_nope'),
      401,
      'invalid_session',
    );
  });

  it('login with a wrong password → 401 invalid_credentials', async () => {
    const body = { email: owner.email, password: `${PASSWORD}!` };
    expectSameError(await t.request('POST', '/v1/auth/login', { body }), await trpcMutation('auth.login', body, undefined), 401, 'invalid_credentials');
  });

  it('not found: another workspace, an unknown key, an unknown or ill-shaped form', async () => {
    expectSameError(
      await t.request('GET', `/v1/workspaces/${outsider.workspaceId}/api-keys`, { token: owner.token }),
      await trpcQuery('apiKeys.list', { workspace_id: outsider.workspaceId }, owner.token),
      404,
      'workspace_not_found',
    );
    expectSameError(
      await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/nope`, { token: owner.token }),
      await trpcMutation('apiKeys.revoke', { workspace_id: owner.workspaceId, key_id: 'nope' }, owner.token),
      404,
      'api_key_not_found',
    );
    for (const formId of ['nope', 'form_01jd00000000000000000000aa', keyId]) {
      expectSameError(
        await t.request('GET', `/v1/forms/${formId}`, { token: key }),
        await trpcQuery('forms.get', { form_id: formId }, key),
        404,
        'form_not_found',
        formId,
      );
    }
  });

  it('invalid input → 400 invalid_request with the same details', async () => {
    const cases: [string, Res, Res][] = [
      [
        'apiKeys.create, an overlong name',
        await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: { name: 'k'.repeat(65) } }),
        await trpcMutation('apiKeys.create', { workspace_id: owner.workspaceId, name: 'k'.repeat(65) }, owner.token),
      ],
      [
        'forms.create, several schema problems',
        await t.request('POST', '/v1/forms', {
          token: key,
          body: severalSchemaProblems,
        }),
        await trpcMutation('forms.create', severalSchemaProblems, key),
      ],
      [
        'forms.update, duplicate field names and an unknown field',
        await t.request('PATCH', `/v1/forms/${(await t.request('POST', '/v1/forms', { token: key, body: formBody })).json.id}`, {
          token: key,
          body: {
            schema: [
              { name: 'x', type: 'text' },
              { name: 'x', type: 'text' },
            ],
            workspace_id: outsider.workspaceId,
          },
        }),
        await trpcMutation(
          'forms.update',
          {
            form_id: (await t.request('POST', '/v1/forms', { token: key, body: formBody })).json.id,
            schema: [
              { name: 'x', type: 'text' },
              { name: 'x', type: 'text' },
            ],
            workspace_id: outsider.workspaceId,
          },
          key,
        ),
      ],
      [
        'workspaces.create, a lone surrogate',
        await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'a\ud800' } }),
        await trpcMutation('workspaces.create', { name: 'a\ud800' }, owner.token),
      ],
      [
        'workspaces.list, a limit out of range',
        await t.request('GET', '/v1/workspaces?limit=0', { token: owner.token }),
        await trpcQuery('workspaces.list', { limit: '0' }, owner.token),
      ],
      [
        'workspaces.list, a bogus cursor',
        await t.request('GET', '/v1/workspaces?cursor=bogus', { token: owner.token }),
        await trpcQuery('workspaces.list', { cursor: 'bogus' }, owner.token),
      ],
      [
        'auth.signup, a bad email and a short password',
        await t.request('POST', '/v1/auth/signup', { body: { email: 'nope', password: 'short' } }),
        await trpcMutation('auth.signup', { email: 'nope', password: 'short' }, undefined),
      ],
    ];
    for (const [what, rest, trpc] of cases) {
      const error = expectSameError(rest, trpc, 400, 'invalid_request', what);
      expect((error.details as unknown[] | undefined)?.length, what).toBeGreaterThan(0);
    }
    // The details say where: a path per problem.
    const formError = expectSameError(cases[1]![1], cases[1]![2], 400, 'invalid_request');
    const paths = (formError.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['name', 'schema.0.options', 'schema.1.type', 'schema.2.name', 'schema.2.required', 'allowed_origins.0', 'allowed_origins.1']),
    );
    const updateError = expectSameError(cases[2]![1], cases[2]![2], 400, 'invalid_request');
    expect((updateError.details as { path: string }[]).length).toBeGreaterThan(0);
  });

  it('a caller-chosen request id is the same in both answers', async () => {
    const headers = { 'x-request-id': 'parity-req-1' };
    const rest = await t.request('GET', '/v1/forms/nope', { token: key, headers });
    const trpc = await trpcQuery('forms.get', { form_id: 'nope' }, key, { headers });
    expectSameError(rest, trpc, 404, 'form_not_found');
    expect(rest.json.error.request_id).toBe('parity-req-1');
    expect(trpc.json.error.data.request_id).toBe('parity-req-1');
    expect(rest.json.error).toEqual((({ httpStatus: _h, ...d }) => d)(trpc.json.error.data));
  });
});
