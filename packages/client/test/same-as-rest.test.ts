/**
 * The typed client reads what REST answers: the same objects, and lfk's error (REST's `error`) in
 * `error.data`, over a real socket. (The server suite checks the same of raw tRPC calls.)
 */
import { type Account, useTestServer } from '@lfk/server/testing';
import { beforeAll, expect, it } from 'vitest';
import { createLfkClient } from '../src/index.ts';

const t = useTestServer();
let baseUrl: string;
let owner: Account;
let member: Account;
let key: string;

beforeAll(async () => {
  baseUrl = await t.server.app.listen({ port: 0, host: '127.0.0.1' });
  ({ owner, member } = await t.signupTeam());
  ({ key } = await t.createKey(owner.token, owner.workspaceId, 'parity'));
});

it('reads the same objects REST answers, and gets lfk errors in error.data', async () => {
  expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const keyClient = createLfkClient({ baseUrl: baseUrl, apiKey: key });
  const sessionClient = createLfkClient({ baseUrl: `${baseUrl}/`, sessionToken: owner.token });

  // A mutation through the client, read back through REST over the same socket.
  const created = await keyClient.forms.create.mutate({
    name: 'Via client ✨',
    schema: [{ name: 'email', type: 'email', required: true }],
  });
  const restRes = await fetch(`${baseUrl}/v1/forms/${created.id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(restRes.status).toBe(200);
  expect(restRes.headers.get('x-request-id')).toEqual(expect.any(String));
  const rest = await restRes.json();
  expect(rest).toEqual(created);

  // A query through the client: the same object as REST.
  const viaClient = await keyClient.forms.get.query({ form_id: created.id });
  expect(viaClient).toEqual(rest);

  // A session client: its list is REST's list.
  const keys = await sessionClient.apiKeys.list.query({ workspace_id: owner.workspaceId });
  const restKeys = await (
    await fetch(`${baseUrl}/v1/workspaces/${owner.workspaceId}/api-keys`, { headers: { authorization: `Bearer ${owner.token}` } })
  ).json();
  expect(keys).toEqual(restKeys);
  const session = await sessionClient.auth.session.query();
  expect(session.user.id).toBe(owner.userId);

  // Errors carry lfk's code and the same body REST answers.
  const failure = await keyClient.forms.get.query({ form_id: 'nope' }).then(
    () => null,
    (error: unknown) => error as { data?: Record<string, unknown>; message?: string },
  );
  expect(failure).not.toBeNull();
  expect(failure!.data).toMatchObject({ code: 'form_not_found', httpStatus: 404, message: 'No such form.' });
  expect(failure!.message).toBe('No such form.');
  const restError = (await (await fetch(`${baseUrl}/v1/forms/nope`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    error: Record<string, unknown>;
  };
  const { httpStatus: _h, request_id: _r, ...clientError } = failure!.data!;
  const { request_id: _rr, ...restErrorBody } = restError.error;
  expect(clientError).toEqual(restErrorBody);

  // And a member's session is refused key management with owner_required.
  const memberClient = createLfkClient({ baseUrl: baseUrl, sessionToken: member.token });
  const refused = await memberClient.apiKeys.list.query({ workspace_id: owner.workspaceId }).then(
    () => null,
    (error: unknown) => error as { data?: Record<string, unknown> },
  );
  expect(refused?.data).toMatchObject({ code: 'owner_required', httpStatus: 403 });
});
