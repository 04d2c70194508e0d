/**
 * The client against a real listening server: credentials, Idempotency-Key, and telling lfk's
 * answers (by code) from network failures. Installed outside the repository, the same is checked
 * by `npm run test:consumers`.
 */
import { randomUUID } from 'node:crypto';
import { type Account, authenticatorCode, freePort, PASSWORD, thrown, useTestServer } from '@lfk/server/testing';
import { TRPCClientError } from '@trpc/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLfkClient, exportSubmissions, isLfkError, LfkResponseError, lfkErrorOf, secondFactorChallengeOf } from '../src/index.ts';

const t = useTestServer();
let baseUrl: string;
let owner: Account;
let key: string;

const contactForm = { name: 'Contact', schema: [{ name: 'email', type: 'email' as const, required: true }] };

beforeAll(async () => {
  baseUrl = await t.server.app.listen({ port: 0, host: '127.0.0.1' });
  ({ owner, key } = await t.signupWithKey());
});

describe('credentials', () => {
  it('an API key acts for its workspace; a session token for its person', async () => {
    const withKey = createLfkClient({ baseUrl, apiKey: key });
    const form = await withKey.forms.create.mutate(contactForm);
    expect(form).toMatchObject({ state: 'claimed', workspace_id: owner.workspaceId });

    const asOwner = createLfkClient({ baseUrl: `${baseUrl}/`, sessionToken: owner.token });
    const workspaces = await asOwner.workspaces.list.query({});
    expect(workspaces.data.map((w) => w.id)).toContain(owner.workspaceId);
    const refused = await thrown(withKey.apiKeys.list.query({ workspace_id: owner.workspaceId }));
    expect(isLfkError(refused, 'session_required')).toBe(true);
  });
});

describe('signing in with a second factor (issue 42)', () => {
  it('the sign-in answers a challenge, which a code from the app completes', async () => {
    const person = await t.signup();
    const { secret } = await t.enableAuthenticator(person.token);
    const anonymous = createLfkClient({ baseUrl });
    const refused = await thrown(anonymous.auth.login.mutate({ email: person.email, password: PASSWORD }));
    expect(secondFactorChallengeOf(new Error('not lfk'))).toBeNull();
    const pending = secondFactorChallengeOf(refused);
    expect(pending).toMatchObject({ challenge: expect.stringMatching(/^lfm_/), factors: ['totp', 'recovery_code'], passkeyOptions: null });
    // The app's next code: the setup took the current one.
    const signedIn = await anonymous.auth.secondFactor.mutate({
      challenge: pending!.challenge,
      code: await authenticatorCode(secret, 1, t.server.config.now()),
    });
    const asPerson = createLfkClient({ baseUrl, sessionToken: signedIn.session_token });
    expect((await asPerson.twoFactor.status.query()).totp.enabled).toBe(true);
  });
});

describe('a key and where it may be used (issue 28)', () => {
  it('an owner limits a key to addresses; the key knows it; from elsewhere it is invalid_api_key', async () => {
    const asOwner = createLfkClient({ baseUrl, sessionToken: owner.token });
    const made = await asOwner.apiKeys.create.mutate({ workspace_id: owner.workspaceId, name: 'agent', allowed_ips: ['127.0.0.1'] });
    const asKey = createLfkClient({ baseUrl, apiKey: made.key });
    expect(await asKey.apiKeys.current.query()).toMatchObject({ id: made.id, name: 'agent', allowed_ips: ['127.0.0.1'] });

    const moved = await asOwner.apiKeys.update.mutate({
      workspace_id: owner.workspaceId,
      key_id: made.id,
      name: 'agent (moved)',
      allowed_ips: ['192.0.2.0/24'],
    });
    expect(moved).toMatchObject({ name: 'agent (moved)', allowed_ips: ['192.0.2.0/24'] });
    expect(isLfkError(await thrown(asKey.apiKeys.current.query()), 'invalid_api_key')).toBe(true);

    const usage = await asOwner.apiKeys.usage.query({ workspace_id: owner.workspaceId, key_id: made.id, days: 1 });
    expect(usage.data[0]!.refused).toHaveProperty('address_not_allowed');
  });
});

describe('Idempotency-Key', () => {
  it('a retry with the same key answers the first form; another input with it is idempotency_key_reused', async () => {
    const withKey = createLfkClient({ baseUrl, apiKey: key });
    const idempotencyKey = randomUUID();
    const first = await withKey.forms.create.mutate(contactForm, { context: { idempotencyKey } });
    const retried = await withKey.forms.create.mutate(contactForm, { context: { idempotencyKey } });
    expect(retried.id).toBe(first.id);
    expect(await t.count('forms where id = ?', [first.id])).toBe(1);

    const reused = await thrown(withKey.forms.create.mutate({ ...contactForm, name: 'Other' }, { context: { idempotencyKey } }));
    expect(isLfkError(reused, 'idempotency_key_reused')).toBe(true);
  });
});

describe('isLfkError', () => {
  it("is true of lfk's answer, with its code, status and request id; the error is the caller's TRPCClientError", async () => {
    const { key: doomed, id } = await t.createKey(owner.token, owner.workspaceId, 'doomed');
    const withKey = createLfkClient({ baseUrl, apiKey: doomed });
    const form = await withKey.forms.create.mutate(contactForm);
    expect((await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token })).status).toBe(204);

    const error = await thrown(withKey.forms.get.query({ form_id: form.id }));
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(isLfkError(error)).toBe(true);
    expect(isLfkError(error, 'invalid_api_key')).toBe(true);
    expect(isLfkError(error, 'form_not_found')).toBe(false);
    if (!isLfkError(error)) throw error;
    expect(error.data).toMatchObject({ code: 'invalid_api_key', httpStatus: 401, request_id: expect.any(String) });
    expect(JSON.stringify(error.data)).not.toContain(doomed);
  });

  it('is false of a network failure, and of anything that is not a tRPC error', async () => {
    const nobody = createLfkClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: key });
    const error = await thrown(nobody.forms.get.query({ form_id: 'form_x' }));
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(isLfkError(error)).toBe(false);
    expect(isLfkError(new Error('invalid_api_key'))).toBe(false);
    expect(isLfkError({ data: { code: 'invalid_api_key' } })).toBe(false);
  });

  it('a key that was never issued is the same invalid_api_key', async () => {
    const error = await thrown(createLfkClient({ baseUrl, apiKey: `lfk_${'x'.repeat(36)}` }).forms.get.query({ form_id: 'form_x' }));
    expect(isLfkError(error, 'invalid_api_key')).toBe(true);
  });
});

describe('lfkErrorOf', () => {
  it("reads lfk's answer: code, message, field details, status and request id; Retry-After on a 429", async () => {
    const withKey = createLfkClient({ baseUrl, apiKey: key });
    const invalid = lfkErrorOf(await thrown(withKey.forms.create.mutate({ name: '', schema: [] })));
    expect(invalid).toMatchObject({ code: 'invalid_request', status: 400, requestId: expect.any(String), retryAfterSeconds: null });
    expect(invalid!.details.map((d) => d.path)).toContain('name');

    const form = await createLfkClient({ baseUrl, sessionToken: owner.token }).forms.create.mutate({
      ...contactForm,
      workspace_id: owner.workspaceId,
      notify_email: 'owner@example.com',
    });
    const tooSoon = lfkErrorOf(await thrown(withKey.forms.resendVerification.mutate({ form_id: form.id })));
    expect(tooSoon).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(tooSoon!.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('is null when lfk did not answer', async () => {
    const nobody = createLfkClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: key });
    expect(lfkErrorOf(await thrown(nobody.forms.get.query({ form_id: 'form_x' })))).toBeNull();
    expect(lfkErrorOf(new Error('invalid_api_key'))).toBeNull();
  });
});

describe('the inbox', () => {
  it('filters, marks and deletes submissions, and streams an export of them', async () => {
    const session = createLfkClient({ baseUrl, sessionToken: owner.token });
    const form = await session.forms.create.mutate({ ...contactForm, workspace_id: owner.workspaceId, spam: { honeypot: '_gotcha' } });
    const withKey = createLfkClient({ baseUrl, apiKey: key });
    const kept = await withKey.submissions.create.mutate({ form_id: form.id, data: { email: 'kept@example.com' } });
    const caught = await withKey.submissions.create.mutate({ form_id: form.id, data: { email: 'bot@example.com', _gotcha: 'x' } });

    expect((await session.submissions.list.query({ form_id: form.id, status: 'spam' })).data.map((s) => s.id)).toEqual([caught.id]);
    expect(await session.submissions.markNotSpam.mutate({ form_id: form.id, submission_id: caught.id })).toMatchObject({ status: 'ok' });
    expect((await session.submissions.list.query({ form_id: form.id, q: 'KEPT' })).data.map((s) => s.id)).toEqual([kept.id]);

    const stream = await exportSubmissions({ baseUrl, sessionToken: owner.token }, form.id, { format: 'csv' });
    const csv = await new Response(stream).text();
    expect(csv.split('\r\n').slice(0, 3)).toEqual([
      'id,created_at,via,email',
      `${kept.id},${kept.created_at},api_key,kept@example.com`,
      `${caught.id},${caught.created_at},api_key,bot@example.com`,
    ]);

    expect(await session.submissions.deleteMany.mutate({ form_id: form.id, ids: [kept.id, caught.id] })).toEqual({ deleted: 2 });
    await session.forms.delete.mutate({ form_id: form.id });
    expect(isLfkError(await thrown(session.forms.get.query({ form_id: form.id })), 'form_not_found')).toBe(true);
  });

  it('an export refused is an LfkResponseError that lfkErrorOf reads, before any byte', async () => {
    const form = await createLfkClient({ baseUrl, apiKey: key }).forms.create.mutate(contactForm);
    const refused = await thrown(exportSubmissions({ baseUrl, sessionToken: key }, form.id));
    expect(refused).toBeInstanceOf(LfkResponseError);
    expect(lfkErrorOf(refused)).toMatchObject({ code: 'session_required', status: 403, requestId: expect.any(String) });
    const badFormat = await thrown(exportSubmissions({ baseUrl, sessionToken: owner.token }, form.id, { format: 'xlsx' as 'csv' }));
    expect(lfkErrorOf(badFormat)).toMatchObject({ code: 'invalid_request', status: 400 });
  });
});
