/**
 * Authorization matrix: every REST route of `restRoutes` × every kind of caller → the status and
 * error code the API documents (the OpenAPI document, the README) (or the success status and one meaningful body property).
 *
 * The matrix is data (`MATRIX` below, one row per route naming its access); the files beside this one
 * run its cells. A route added to `restRoutes` without a row here fails the coverage test, so no route
 * can be forgotten.
 *
 * Callers send credentials as `Authorization: Bearer …`. A presented credential that is refused
 * (expired or signed-out session, revoked or malformed key) is refused on every route, the public
 * ones included: `invalid_session` / `invalid_api_key` belong to the credential, not to
 * the route.
 */
import { createHash } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import { type Account, authenticatorCode, createForm, linkTokenSentTo, PasskeyAuthenticator, PASSWORD, type Res, submitMultipart, type TestServer, until, useTestServer, verificationTokenSentTo } from '@lfk/server/testing';

// ---------------------------------------------------------------------------------------------
// Callers (columns)
// ---------------------------------------------------------------------------------------------

export const CALLERS = [
  'no_credentials',
  'owner_session', // owner of workspace W (the workspace every route targets)
  'member_session', // a user added to W with role `member`
  'outsider_session', // a user of another workspace only
  'expired_session', // an owner session whose expires_at is in the past
  'signed_out_session', // an owner session after POST /v1/auth/logout
  'workspace_key', // an active key of W
  'other_workspace_key', // an active key of the outsider's workspace
  'revoked_key', // a key of W, revoked
  'malformed_bearer', // `Bearer not-a-key`
  'bad_checksum_key', // W's key with its last checksum character changed
] as const;
export type Caller = (typeof CALLERS)[number];

/** `'403 owner_required'` for an error; a bare number for the route's success status. */
export type Expected = `${401 | 403 | 404} ${string}` | 200 | 201 | 202 | 204;

/** Shared state built once; every cell that would change it builds its own fresh state instead. */
export interface World {
  owner: Account;
  member: Account;
  outsider: Account;
  /** The workspace every workspace-scoped route targets. */
  ws: string;
  key: { key: string; id: string };
  otherKey: { key: string; id: string };
  revokedKey: string;
  expiredToken: string;
  signedOutToken: string;
  badChecksumKey: string;
  /** A claimed form of W (read only). */
  formId: string;
  /** A claimed `api_key`-mode form of W. */
  apiKeyFormId: string;
}

/** What one cell sends: path parameters (`workspace_id` defaults to W), body, and anything to check. */
export interface Prepared {
  params?: Record<string, string>;
  body?: unknown;
  /** Replaces the caller's usual token (e.g. a fresh session for logout). */
  token?: string;
  /** Anything the success check needs (a fresh user, the email signed up with…). */
  ref?: Record<string, string>;
}

export interface Row {
  /** `METHOD path`, exactly as in `restRoutes`. */
  route: string;
  prepare?: (w: World, caller: Caller) => Promise<Prepared>;
  success: (res: Res, cx: { w: World; caller: Caller; prepared: Prepared }) => void;
  expect: Expectations;
}

export let t: TestServer;
export let w: World;

export const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };
let seq = 0;
export const freshEmail = () => `matrix${++seq}-${Date.now().toString(36)}@example.com`;

// ---------------------------------------------------------------------------------------------
// Who may call a route: one row of expectations per kind of access, `ok` the route's success
// ---------------------------------------------------------------------------------------------

export type Expectations = Record<Caller, Expected>;
export type Success = 200 | 201 | 202 | 204;

/** A presented credential that is refused is refused on every route, the public ones included. */
export const REFUSED_CREDENTIALS = {
  expired_session: '401 invalid_session',
  signed_out_session: '401 invalid_session',
  revoked_key: '401 invalid_api_key',
  malformed_bearer: '401 invalid_api_key',
  bad_checksum_key: '401 invalid_api_key',
} as const;

/** Public: no credentials needed, any good one accepted. */
export const anyone = (ok: Success): Expectations => ({
  no_credentials: ok, owner_session: ok, member_session: ok, outsider_session: ok,
  workspace_key: ok, other_workspace_key: ok,
  ...REFUSED_CREDENTIALS,
});

/** Any signed-in person's session; a key is not a person. */
export const signedIn = (ok: Success): Expectations => ({
  no_credentials: '401 unauthenticated', owner_session: ok, member_session: ok, outsider_session: ok,
  workspace_key: '403 session_required', other_workspace_key: '403 session_required',
  ...REFUSED_CREDENTIALS,
});

/** A session of a member of W; to anyone else W (or the form in it) does not exist. */
export const workspaceMember = (ok: Success, notFound: Expected = '404 workspace_not_found'): Expectations => ({
  ...signedIn(ok),
  outsider_session: notFound,
});

/** A session of an owner of W. */
export const workspaceOwner = (ok: Success): Expectations => ({ ...workspaceMember(ok), member_session: '403 owner_required' });

/** The forms scope: a member's session or a key of the form's workspace. */
export const formsScope = (ok: Success, notFound: Expected = '404 form_not_found'): Expectations => ({
  ...workspaceMember(ok, notFound),
  workspace_key: ok,
  other_workspace_key: notFound,
});

/** An API key, of any workspace: it answers for itself; a session has no key to answer for. */
export const anyKey = (ok: Success): Expectations => ({
  no_credentials: '401 unauthenticated', owner_session: '401 api_key_required', member_session: '401 api_key_required',
  outsider_session: '401 api_key_required',
  workspace_key: ok, other_workspace_key: ok,
  ...REFUSED_CREDENTIALS,
});

/** A key of the form's workspace, and nothing else. */
export const workspaceKey = (ok: Success): Expectations => ({
  no_credentials: '401 api_key_required', owner_session: '401 api_key_required', member_session: '401 api_key_required',
  outsider_session: '401 api_key_required',
  workspace_key: ok, other_workspace_key: '403 forbidden',
  ...REFUSED_CREDENTIALS,
});

/** A submission of its own to W's api_key-mode form, for a cell that deletes or marks it. */
async function freshSubmission(w: World): Promise<Prepared> {
  const submitted = await t.request('POST', `/v1/forms/${w.apiKeyFormId}/submissions`, { token: w.key.key, body: { email: 'inbox@example.org' } });
  if (submitted.status !== 201) throw new Error(`submission failed: ${submitted.status} ${submitted.body}`);
  return { params: { form_id: w.apiKeyFormId, submission_id: submitted.json.id }, ref: { submissionId: submitted.json.id } };
}

/** A fresh submission with one file (a form of W with a file field, sent with W's key). */
async function freshFile(w: World): Promise<Prepared> {
  const form = await createForm(t, w.key.key, { name: 'Uploads', schema: [{ name: 'doc', type: 'file', required: true }] });
  const submitted = await submitMultipart(t, form.id, [{ name: 'doc', file: 'hello, file', filename: 'hello.txt' }], { token: w.key.key });
  if (submitted.status !== 201) throw new Error(`submission failed: ${submitted.status} ${submitted.body}`);
  const [file] = (await t.sql<{ id: string }>('select id from submission_files where submission_id = ?', [submitted.json.id]));
  const link = new URL(t.server.services.files.links.url(file!.id, new Date(Date.now() + 3_600_000)));
  return { params: { form_id: form.id, submission_id: submitted.json.id, file_id: file!.id, token: link.pathname.split('/').pop()! } };
}

/** A fresh form and the link its verification email carries: a link works once, so one per cell. */
async function freshVerificationLink(w: World): Promise<Prepared> {
  const address = freshEmail();
  await createForm(t, w.key.key, { ...formBody, notify_email: address });
  return { params: { token: await verificationTokenSentTo(t, address) } };
}

/** A stop link of its own: a form of W with an auto-reply, and a submission that sent one to a fresh address. */
async function freshStopLink(w: World): Promise<Prepared> {
  const address = freshEmail();
  const form = await createForm(t, w.key.key, { ...formBody, auto_reply: { email_field: 'email', subject: 'Thanks', text: 'We got it.' } });
  const sent = await t.request('POST', `/v1/forms/${form.id}/submissions`, { token: w.key.key, body: { email: address } });
  if (sent.status !== 201) throw new Error(`submission failed: ${sent.status} ${sent.body}`);
  return { params: { token: await linkTokenSentTo(t, address, 'auto_reply') } };
}

/** A pending invitation of its own into W, for a cell that resends, cancels or opens it. */
async function freshInvitation(w: World): Promise<Prepared> {
  const email = freshEmail();
  const res = await t.request('POST', `/v1/workspaces/${w.ws}/invitations`, { token: w.owner.token, body: { email, role: 'member' } });
  if (res.status !== 202) throw new Error(`invite failed: ${res.status} ${res.body}`);
  return { params: { invitation_id: res.json.id }, ref: { invitationId: res.json.id, email } };
}

/** How many invitations were emailed to `email` so far, the one just sent included (the shared callers are invited once per row). */
async function countInvitationsTo(email: string): Promise<number> {
  return t.count("outbox_emails where kind = 'invitation' and \"to\" = ?", [email]);
}

/** A fresh account and the reset link it was sent: a link works once, so one per cell. */
async function freshResetLink(_w?: World): Promise<Prepared> {
  const account = await t.signup();
  const res = await t.request('POST', '/v1/auth/password-resets', { body: { email: account.email } });
  if (res.status !== 202) throw new Error(`reset request failed: ${res.status} ${res.body}`);
  return { params: { token: await linkTokenSentTo(t, account.email, 'password_reset') } };
}

/** A success that is an HTML page showing `text`. */
const htmlPageShowing = (text: string) => (res: Res) => {
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toContain(text);
};

// ---------------------------------------------------------------------------------------------
// The matrix (rows)
// ---------------------------------------------------------------------------------------------

/** A device's sign-in request, pending: its secret device code and the code a person approves. */
async function startDeviceLogin(): Promise<{ device_code: string; user_code: string }> {
  const res = await t.request('POST', '/v1/auth/device-logins', { body: { device_name: 'matrix' } });
  expect(res.status, res.body).toBe(201);
  return res.json;
}

/**
 * Where the matrix's webhooks point: an https URL of a name that never resolves (`.invalid`, RFC 6761).
 * It is accepted (a name that does not resolve yet is not refused), and every POST to it fails at once.
 */
export const WEBHOOK_URL = 'https://hooks.lfk.invalid/matrix';

/** A fresh form of W with one webhook endpoint, made with W's key: one per cell, so no form nears its 5 endpoints. */
async function freshWebhook(w: World): Promise<{ formId: string; webhookId: string; secret: string }> {
  const formId = (await createForm(t, w.key.key, formBody)).id;
  const res = await t.request('POST', `/v1/forms/${formId}/webhooks`, { token: w.key.key, body: { url: WEBHOOK_URL } });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${res.body}`);
  return { formId, webhookId: res.json.id, secret: res.json.secret };
}

const webhookParams = (hook: { formId: string; webhookId: string }) => ({ form_id: hook.formId, webhook_id: hook.webhookId });

/**
 * A fresh webhook with one delivery: a submission (with W's key) to its form queues it. The
 * first attempt fails (the URL never resolves); once it is recorded the delivery is written down
 * as failed for good, as when its attempts run out, so no attempt of the worker is in flight
 * when a cell reads or retries it.
 */
async function freshDelivery(w: World): Promise<Prepared> {
  const hook = await freshWebhook(w);
  const submitted = await t.request('POST', `/v1/forms/${hook.formId}/submissions`, { token: w.key.key, body: { email: 'hook@example.org' } });
  if (submitted.status !== 201) throw new Error(`submission failed: ${submitted.status} ${submitted.body}`);
  const deliveryId = await until('the delivery\'s first attempt', async () => {
    const [row] = await t.sql<{ id: string }>(
      'select id from webhook_deliveries where endpoint_id = ? and attempt_count > 0 and locked_until is null and jsonb_array_length(attempts) > 0',
      [hook.webhookId],
    );
    return row?.id;
  });
  await t.sql("update webhook_deliveries set status = 'failed', next_attempt_at = null where id = ?", [deliveryId]);
  return {
    params: { ...webhookParams(hook), delivery_id: deliveryId },
    ref: { webhookId: hook.webhookId, deliveryId, submissionId: submitted.json.id },
  };
}

export const MATRIX: Row[] = [
  // ── /v1/auth: signup and login are public; logout and session need a session ──────────────
  {
    route: 'POST /v1/auth/signup',
    prepare: async () => {
      const email = freshEmail();
      return { body: { email, password: PASSWORD }, ref: { email } };
    },
    success: (res, { prepared }) => expect(res.json.user.email).toBe(prepared.ref!.email),
    expect: anyone(201),
  },
  {
    route: 'POST /v1/auth/login',
    prepare: async (w) => ({ body: { email: w.owner.email, password: PASSWORD } }),
    success: (res, { w }) => {
      expect(res.json.user.id).toBe(w.owner.userId);
      expect(res.json.session_token).toMatch(/^lfs_/);
    },
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/logout',
    // Signing out revokes the session: each session caller signs out a fresh one of its own.
    prepare: async (w, caller) => {
      const account = sessionAccount(w, caller);
      return account ? { token: await login(account.email) } : {};
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/password',
    // A person of its own for each session caller: the shared ones keep their passwords for login.
    prepare: async (w, caller) => {
      const body = { current_password: PASSWORD, new_password: 'a new long password' };
      return sessionAccount(w, caller) ? { token: (await t.signup()).token, body } : { body };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'DELETE /v1/auth/account',
    // A person of its own for each session caller: the shared ones stay.
    prepare: async (w, caller) => {
      const body = { password: PASSWORD };
      return sessionAccount(w, caller) ? { token: (await t.signup()).token, body } : { body };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/email-verification',
    // A person of its own for each session caller, whose address is not verified yet.
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup(undefined, { confirmed: false })).token } : {}),
    success: (res) => expect(res.json.sent_to).toMatch(/^.\*\*\*@example\.com$/),
    expect: signedIn(202),
  },
  {
    route: 'POST /v1/auth/password-resets',
    prepare: async (w) => ({ body: { email: w.owner.email } }),
    success: (res) => expect(res.json.message).toMatch(/^If an account uses this address/),
    expect: anyone(202),
  },
  {
    route: 'GET /v1/auth/password-resets/:token',
    prepare: freshResetLink,
    // Opening a link shows its form and changes nothing.
    success: htmlPageShowing('autocomplete="new-password"'),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/password-resets/:token',
    prepare: async (w) => ({ ...(await freshResetLink(w)), body: { password: 'a brand new password' } }),
    // The token is the credential, so any caller holding it may use it.
    success: (res) => expect(res.body).toBe(''),
    expect: anyone(204),
  },
  {
    route: 'GET /v1/auth/sessions',
    success: (res) => expect(res.json.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1),
    expect: signedIn(200),
  },
  {
    route: 'DELETE /v1/auth/sessions/:session_id',
    // Each session caller signs out another session of its own, made for the cell.
    prepare: async (w, caller) => {
      const account = sessionAccount(w, caller);
      if (!account) return { params: { session_id: 'ses_00000000000000000000000000' } };
      const other = await login(account.email);
      const listed = await t.request('GET', '/v1/auth/sessions', { token: other });
      const id = listed.json.data.find((s: { current: boolean }) => s.current).id as string;
      return { params: { session_id: id } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/sessions/revoke-others',
    // A person of its own for each session caller: the shared ones keep their other sessions.
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup()).token } : {}),
    success: (res) => expect(res.json).toEqual({ revoked: 0 }),
    expect: signedIn(200),
  },
  {
    route: 'GET /v1/auth/session',
    success: (res, { w, caller }) => expect(res.json.user.id).toBe(sessionAccount(w, caller)!.userId),
    expect: signedIn(200),
  },
  {
    route: 'GET /v1/auth/two-factor',
    success: (res) => expect(res.json).toEqual({ enabled: false, totp: { enabled: false, enabled_at: null }, passkeys: [], recovery_codes: { remaining: 0 } }),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/two-factor/totp',
    // Starting a setup changes nothing yet, but each session caller starts its own person's.
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup()).token } : {}),
    success: (res) => expect(res.json.otpauth_url).toMatch(/^otpauth:\/\/totp\/lfk:/),
    expect: signedIn(201),
  },
  {
    route: 'POST /v1/auth/two-factor/totp/confirm',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return { body: { code: '123456' } };
      const { token } = await t.signup();
      const started = await t.request('POST', '/v1/auth/two-factor/totp', { token });
      return { token, body: { code: await authenticatorCode(started.json.secret, 0, t.server.config.now()) } };
    },
    success: (res) => expect(res.json.recovery_codes).toHaveLength(10),
    expect: signedIn(200),
  },
  {
    route: 'DELETE /v1/auth/two-factor/totp',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return {};
      const { token } = await t.signup();
      await t.enableAuthenticator(token);
      return { token };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/two-factor/recovery-codes',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return {};
      const { token } = await t.signup();
      await t.enableAuthenticator(token);
      return { token };
    },
    success: (res) => expect(res.json.recovery_codes).toHaveLength(10),
    expect: signedIn(201),
  },
  {
    route: 'POST /v1/auth/two-factor/passkeys/options',
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup()).token } : {}),
    success: (res) => expect(res.json.options.attestation).toBe('none'),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/two-factor/passkeys',
    prepare: async (w, caller) => {
      const device = new PasskeyAuthenticator(new URL(t.server.config.publicUrl).origin);
      if (!sessionAccount(w, caller)) return { body: { name: 'Laptop', credential: device.register({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'x' } }) } };
      const { token } = await t.signup();
      const options = await t.request('POST', '/v1/auth/two-factor/passkeys/options', { token });
      return { token, body: { name: 'Laptop', credential: device.register(options.json.options) } };
    },
    success: (res) => expect(res.json.passkey.name).toBe('Laptop'),
    expect: signedIn(201),
  },
  {
    route: 'PATCH /v1/auth/two-factor/passkeys/:passkey_id',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return { params: { passkey_id: 'pkey_00000000000000000000000000' }, body: { name: 'Renamed' } };
      const { token } = await t.signup();
      const { passkeyId } = await t.addPasskey(token);
      return { token, params: { passkey_id: passkeyId }, body: { name: 'Renamed' } };
    },
    success: (res) => expect(res.json.name).toBe('Renamed'),
    expect: signedIn(200),
  },
  {
    route: 'DELETE /v1/auth/two-factor/passkeys/:passkey_id',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return { params: { passkey_id: 'pkey_00000000000000000000000000' } };
      const { token } = await t.signup();
      const { passkeyId } = await t.addPasskey(token);
      return { token, params: { passkey_id: passkeyId } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/second-factor',
    // The challenge is the credential: any caller holding one completes its sign-in.
    prepare: async () => {
      const person = await t.signup();
      const { secret } = await t.enableAuthenticator(person.token);
      const answer = await t.request('POST', '/v1/auth/login', { body: { email: person.email, password: PASSWORD } });
      // The setup took the current step's code: the app's next one is taken once.
      return { body: { challenge: answer.json.error.challenge, code: await authenticatorCode(secret, 1, t.server.config.now()) }, ref: { userId: person.userId } };
    },
    success: (res, { prepared }) => expect(res.json.user.id).toBe(prepared.ref!.userId),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/login/passkey/options',
    success: (res) => expect(res.json.options.challenge).toEqual(expect.any(String)),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/login/passkey',
    // The passkey is the credential: any caller holding one signs its person in.
    prepare: async () => {
      const person = await t.signup();
      const { device } = await t.addPasskey(person.token);
      const options = await t.request('POST', '/v1/auth/login/passkey/options');
      return { body: { passkey: device.assert(options.json.options) }, ref: { userId: person.userId } };
    },
    success: (res, { prepared }) => expect(res.json.user.id).toBe(prepared.ref!.userId),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/reauthenticate/options',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return {};
      const { token } = await t.signup();
      await t.addPasskey(token);
      return { token };
    },
    success: (res) => expect(res.json.options.allowCredentials).toHaveLength(1),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/reauthenticate',
    prepare: async () => ({ body: { password: PASSWORD } }),
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'GET /v1/api-keys/current',
    // Each key answers for itself, and for nothing else.
    success: (res, { w, caller }) => {
      const key = caller === 'workspace_key' ? w.key : w.otherKey;
      expect(res.json.id).toBe(key.id);
      expect(res.json.prefix).toBe(key.key.slice(0, 10));
      expect(JSON.stringify(res.json)).not.toContain(key.key);
    },
    expect: anyKey(200),
  },

  // ── Device sign-in: a device starts and polls (public); a signed-in person sees and decides ──
  {
    route: 'POST /v1/auth/device-logins',
    prepare: async () => ({ body: { device_name: 'matrix' } }),
    success: (res) => {
      expect(res.json.device_code).toMatch(/^lfd_/);
      expect(res.json.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    },
    expect: anyone(201),
  },
  {
    route: 'GET /v1/auth/device-logins/:user_code',
    prepare: async () => ({ params: { user_code: (await startDeviceLogin()).user_code } }),
    success: (res) => expect(res.json).toMatchObject({ device_name: 'matrix', state: 'pending' }),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/device-logins/:user_code/approve',
    prepare: async () => ({ params: { user_code: (await startDeviceLogin()).user_code } }),
    success: (res) => expect(res.json.state).toBe('approved'),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/device-logins/:user_code/deny',
    prepare: async () => ({ params: { user_code: (await startDeviceLogin()).user_code } }),
    success: (res) => expect(res.json.state).toBe('denied'),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/device-logins/token',
    // Each cell polls a sign-in the owner approved; the session it gets is the owner's.
    prepare: async (w) => {
      const started = await startDeviceLogin();
      await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: w.owner.token });
      return { body: { device_code: started.device_code } };
    },
    success: (res, { w }) => {
      expect(res.json.user.id).toBe(w.owner.userId);
      expect(res.json.session_token).toMatch(/^lfs_/);
    },
    expect: anyone(200),
  },

  // ── Workspaces: any signed-in person ─────────────────────────────────────────────────────
  {
    route: 'GET /v1/workspaces',
    success: (res, { w, caller }) => {
      const expected = { owner_session: [w.ws, 'owner'], member_session: [w.ws, 'member'], outsider_session: [w.outsider.workspaceId, 'owner'] }[
        caller as 'owner_session'
      ]!;
      expect(res.json.data.map((ws: { id: string; role: string }) => [ws.id, ws.role])).toContainEqual(expected);
      if (caller === 'outsider_session') expect(res.json.data.map((ws: { id: string }) => ws.id)).not.toContain(w.ws);
    },
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/workspaces',
    prepare: async () => ({ body: { name: 'Side project' } }),
    success: (res) => expect(res.json).toMatchObject({ name: 'Side project', role: 'owner' }),
    expect: signedIn(201),
  },

  // ── Members: list for members, add/remove for owners ─────────────────────────────────────
  {
    route: 'GET /v1/workspaces/:workspace_id/members',
    success: (res, { w }) =>
      expect(res.json.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toContainEqual([w.owner.userId, 'owner']),
    expect: workspaceMember(200),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/invitations',
    prepare: async (w) => {
      await t.request('POST', `/v1/workspaces/${w.ws}/invitations`, { token: w.owner.token, body: { email: 'listed@example.com' } });
      return {};
    },
    success: (res) => expect(res.json.data.map((i: { email: string }) => i.email)).toContain('listed@example.com'),
    expect: workspaceMember(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/invitations',
    prepare: async () => {
      const email = freshEmail();
      return { body: { email, role: 'member' }, ref: { email } };
    },
    success: (res, { w, prepared }) => expect(res.json).toMatchObject({ workspace_id: w.ws, email: prepared.ref!.email, role: 'member' }),
    expect: workspaceOwner(202),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/invitations/:invitation_id/resend',
    prepare: freshInvitation,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.invitationId }),
    expect: workspaceOwner(202),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id/invitations/:invitation_id',
    prepare: freshInvitation,
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
  {
    route: 'GET /v1/invitations/:token',
    prepare: async (w) => {
      const invited = await freshInvitation(w);
      return { params: { token: await linkTokenSentTo(t, invited.ref!.email!, 'invitation') }, ref: invited.ref! };
    },
    success: (res, { w, prepared }) => expect(res.json).toMatchObject({ workspace: { id: w.ws }, email: prepared.ref!.email, role: 'member' }),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/invitations/:token/accept',
    // Each session caller is invited by address into a workspace of a stranger's, so accepting changes nothing of W.
    prepare: async (w, caller) => {
      const host = await t.signup();
      const email = sessionAccount(w, caller)?.email ?? freshEmail();
      const res = await t.request('POST', `/v1/workspaces/${host.workspaceId}/invitations`, { token: host.token, body: { email } });
      if (res.status !== 202) throw new Error(`invite failed: ${res.status} ${res.body}`);
      return { params: { token: await linkTokenSentTo(t, email, 'invitation', await countInvitationsTo(email)) }, ref: { workspaceId: host.workspaceId } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ workspace: { id: prepared.ref!.workspaceId }, role: 'member' }),
    expect: signedIn(200),
  },
  {
    route: 'PATCH /v1/workspaces/:workspace_id/members/:user_id',
    // A fresh member of W to promote, never the shared member caller.
    prepare: async (w) => {
      const promoted = await t.signup();
      await t.addMember(w.ws, promoted.email, 'member');
      return { params: { user_id: promoted.userId }, body: { role: 'owner' }, ref: { userId: promoted.userId } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ user_id: prepared.ref!.userId, role: 'owner' }),
    expect: workspaceOwner(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/leave',
    // The owner and member callers leave as a person of their own, added to W with their role for the
    // cell: the shared ones stay in W.
    prepare: async (w, caller) => {
      if (caller !== 'owner_session' && caller !== 'member_session') return {};
      const leaving = await t.signup();
      await t.addMember(w.ws, leaving.email, caller === 'owner_session' ? 'owner' : 'member');
      return { token: leaving.token };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceMember(204),
  },
  {
    route: 'PATCH /v1/workspaces/:workspace_id',
    prepare: async () => ({ body: { name: 'Workspace W' } }),
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id',
    // A workspace of its own for each cell, W's owner its owner and W's member a member: W stays.
    prepare: async (w) => {
      const made = await t.request('POST', '/v1/workspaces', { token: w.owner.token, body: { name: 'Doomed' } });
      await t.addMember(made.json.id, w.member.email, 'member');
      return { params: { workspace_id: made.json.id }, body: { confirm: 'Doomed' }, ref: { workspaceId: made.json.id } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id/members/:user_id',
    // A fresh member of W to remove, never the shared member caller.
    prepare: async (w) => {
      const leaving = await t.signup();
      await t.addMember(w.ws, leaving.email, 'member');
      return { params: { user_id: leaving.userId }, ref: { userId: leaving.userId } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },

  // ── Projects: list for members, create for owners ────────────────────────────────────────
  {
    route: 'GET /v1/workspaces/:workspace_id/projects',
    success: (res, { w }) =>
      expect(res.json.data).toContainEqual(expect.objectContaining({ workspace_id: w.ws, is_default: true })),
    expect: workspaceMember(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/projects',
    prepare: async () => ({ body: { name: 'Marketing' } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ workspace_id: w.ws, name: 'Marketing', is_default: false }),
    expect: workspaceOwner(201),
  },

  // ── Audit events and key management: owners only ─────────────────────────────────────────
  {
    route: 'GET /v1/workspaces/:workspace_id/audit-events',
    // An event of its own, so that it is on the first page however many the other cells wrote.
    prepare: async (w) => {
      const made = await t.request('POST', `/v1/workspaces/${w.ws}/projects`, { token: w.owner.token, body: { name: 'Audited' } });
      return { ref: { projectId: made.json.id } };
    },
    success: (res, { prepared }) =>
      expect(res.json.data).toContainEqual(
        expect.objectContaining({ action: 'project.created', target: { type: 'project', id: prepared.ref!.projectId } }),
      ),
    expect: workspaceOwner(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/api-keys',
    prepare: async () => ({ body: { name: 'matrix cell' } }),
    success: (res, { w }) => {
      expect(res.json.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
      expect(res.json.workspace_id).toBe(w.ws);
    },
    expect: workspaceOwner(201),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/api-keys',
    success: (res, { w }) =>
      expect(res.json.data).toContainEqual(expect.objectContaining({ id: w.key.id, status: 'active' })),
    expect: workspaceOwner(200),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id/api-keys/:key_id',
    // A fresh key of W to revoke, never one a caller column uses.
    prepare: async (w) => {
      const doomed = await t.createKey(w.owner.token, w.ws, 'to revoke');
      return { params: { key_id: doomed.id }, ref: { keyId: doomed.id } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/api-keys/:key_id',
    prepare: async (w) => ({ params: { key_id: w.key.id } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: w.key.id, status: 'active', revoked_reason: null }),
    expect: workspaceOwner(200),
  },
  {
    route: 'PATCH /v1/workspaces/:workspace_id/api-keys/:key_id',
    // A fresh key of W to rename, never one a caller column uses.
    prepare: async (w) => {
      const renamed = await t.createKey(w.owner.token, w.ws, 'to rename');
      return { params: { key_id: renamed.id }, body: { name: 'renamed', description: 'matrix cell' }, ref: { keyId: renamed.id } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.keyId, name: 'renamed', description: 'matrix cell' }),
    expect: workspaceOwner(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/api-keys/:key_id/roll',
    // A fresh key of W to roll (with no grace, so the limit never bites), never one a caller column uses.
    prepare: async (w) => {
      const rolled = await t.createKey(w.owner.token, w.ws, 'to roll');
      return { params: { key_id: rolled.id }, body: { grace_seconds: 0 }, ref: { keyId: rolled.id } };
    },
    success: (res, { w, prepared }) => {
      expect(res.json).toMatchObject({ name: 'to roll', status: 'active', workspace_id: w.ws });
      expect(res.json.id).not.toBe(prepared.ref!.keyId);
      expect(res.json.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    },
    expect: workspaceOwner(201),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/api-keys/:key_id/usage',
    prepare: async (w) => ({ params: { key_id: w.key.id } }),
    success: (res) => expect(res.json.data).toHaveLength(30),
    expect: workspaceOwner(200),
  },
  {
    // Public, but only a report signed by a trusted key is taken; this server trusts none
    // (test/keys/leak-reports.test.ts signs its own). A refused bearer is refused first, as everywhere.
    route: 'POST /v1/secret-scanning/reports',
    prepare: async () => ({ body: [{ token: 'lfk_not_a_key', type: 'lfk_api_key', url: 'https://example.com' }] }),
    success: () => {},
    expect: {
      ...anyone(200),
      no_credentials: '401 invalid_signature', owner_session: '401 invalid_signature', member_session: '401 invalid_signature',
      outsider_session: '401 invalid_signature', workspace_key: '401 invalid_signature', other_workspace_key: '401 invalid_signature',
    },
  },

  // ── Forms scope: a key of the form's workspace, or a member session ──────────────────────
  {
    route: 'POST /v1/forms',
    // With credentials the body names W: a session must, and a key must match it.
    // Without credentials the form is born unclaimed, and then it needs a notify_email.
    prepare: async (w, caller) =>
      caller === 'no_credentials'
        ? { body: { ...formBody, notify_email: 'anonymous@example.com' } }
        : { body: { ...formBody, workspace_id: w.ws } },
    success: (res, { w, caller }) =>
      caller === 'no_credentials'
        ? expect(res.json).toMatchObject({ state: 'unclaimed', workspace_id: null, claim_token: expect.stringMatching(/^lfc_/) })
        : expect(res.json).toMatchObject({ state: 'claimed', workspace_id: w.ws }),
    expect: { ...formsScope(201, '404 workspace_not_found'), no_credentials: 201 },
  },
  {
    route: 'GET /v1/forms/:form_id',
    prepare: async (w) => ({ params: { form_id: w.formId } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: w.formId, workspace_id: w.ws, state: 'claimed' }),
    expect: formsScope(200),
  },
  {
    route: 'GET /v1/forms/:form_id/email-previews',
    prepare: async (w) => ({ params: { form_id: w.formId } }),
    // The matrix's form notifies nobody and has no auto-reply: both previews say so.
    success: (res) => expect(res.json).toEqual({ notification: null, auto_reply: null }),
    expect: formsScope(200),
  },
  {
    route: 'PATCH /v1/forms/:form_id',
    // A fresh form per cell, so a rename in one cell is never what another reads.
    prepare: async (w) => {
      const created = await t.request('POST', '/v1/forms', { token: w.key.key, body: formBody });
      if (created.status !== 201) throw new Error(`form create failed: ${created.status} ${created.body}`);
      return { params: { form_id: created.json.id }, body: { name: 'Renamed' }, ref: { formId: created.json.id } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.formId, name: 'Renamed' }),
    expect: formsScope(200),
  },
  {
    route: 'POST /v1/forms/:form_id/resend-verification',
    // A fresh form per cell with an address, made long enough ago that a resend is due.
    prepare: async (w) => {
      const formId = (await createForm(t, w.key.key, { ...formBody, notify_email: 'notify@example.com' })).id;
      await t.sql('update forms set verification_sent_at = ? where id = ?', [new Date(Date.now() - 3600_000).toISOString(), formId]);
      return { params: { form_id: formId } };
    },
    success: (res) => expect(res.json).toEqual({ sent_to: 'n***@example.com', sent_to_all: ['n***@example.com'] }),
    expect: formsScope(202),
  },
  {
    route: 'POST /v1/forms/:form_id/claim',
    // A fresh unclaimed form per cell, claimed into W.
    prepare: async (w) => {
      const res = await t.request('POST', '/v1/forms', { body: { ...formBody, notify_email: 'claim@example.com' } });
      if (res.status !== 201) throw new Error(`anonymous create failed: ${res.status} ${res.body}`);
      return { params: { form_id: res.json.id }, body: { claim_token: res.json.claim_token, workspace_id: w.ws }, ref: { formId: res.json.id } };
    },
    success: (res, { w, prepared }) =>
      expect(res.json).toMatchObject({ id: prepared.ref!.formId, state: 'claimed', workspace_id: w.ws }),
    expect: workspaceMember(200),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/forms',
    success: (res, { w }) => expect(res.json.data.map((f: { id: string }) => f.id)).toContain(w.formId),
    expect: workspaceMember(200),
  },

  // ── Submissions: an api_key-mode form takes its workspace's keys only; reading is for members ──
  {
    route: 'POST /v1/forms/:form_id/submissions',
    prepare: async (w) => ({ params: { form_id: w.apiKeyFormId }, body: { email: 'someone@example.org' } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: expect.stringMatching(/^sub_/), form_id: w.apiKeyFormId }),
    expect: workspaceKey(201),
  },
  {
    route: 'GET /v1/forms/:form_id/submissions/:submission_id',
    prepare: async (w) => {
      const created = await t.request('POST', `/v1/forms/${w.apiKeyFormId}/submissions`, { token: w.key.key, body: { email: 'read@example.org' } });
      expect(created.status, created.body).toBe(201);
      return { params: { form_id: w.apiKeyFormId, submission_id: created.json.id }, ref: { id: created.json.id } };
    },
    success: (res, { w, prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.id, form_id: w.apiKeyFormId, data: { email: 'read@example.org' } }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'GET /v1/forms/:form_id/submissions',
    prepare: async (w) => ({ params: { form_id: w.apiKeyFormId } }),
    success: (res, { w }) => {
      expect(res.json.next_cursor === null || typeof res.json.next_cursor === 'string').toBe(true);
      for (const s of res.json.data) expect(s.form_id).toBe(w.apiKeyFormId);
    },
    expect: workspaceMember(200, '404 form_not_found'),
  },
  // Deleting, marking and exporting submissions: members' sessions, as reading them is (a key cannot read them).
  {
    route: 'DELETE /v1/forms/:form_id/submissions/:submission_id',
    prepare: freshSubmission,
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceMember(204, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/submissions/delete',
    prepare: async (w) => {
      const fresh = await freshSubmission(w);
      return { params: { form_id: w.apiKeyFormId }, body: { ids: [fresh.ref!.submissionId] } };
    },
    success: (res) => expect(res.json).toEqual({ deleted: 1 }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/submissions/:submission_id/spam',
    prepare: freshSubmission,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.submissionId, status: 'spam', spam_reason: 'marked' }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/submissions/:submission_id/not-spam',
    prepare: freshSubmission,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.submissionId, status: 'ok', spam_reason: null }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'GET /v1/forms/:form_id/submissions/export',
    prepare: async (w) => ({ params: { form_id: w.apiKeyFormId } }),
    success: (res) => {
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body.split('\r\n')[0]).toBe('id,created_at,via,email');
    },
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'GET /v1/forms/:form_id/submissions/:submission_id/files/:file_id',
    prepare: freshFile,
    success: (res) => expect(res.body).toBe('hello, file'),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // A signed link is its own credential: whoever holds it, with any credential or none.
    route: 'GET /v1/files/:token',
    prepare: freshFile,
    success: (res) => expect(res.body).toBe('hello, file'),
    expect: anyone(200),
  },
  {
    // Members' sessions: a shorter retention deletes submissions, which a key (that cannot read them) may not.
    route: 'PUT /v1/forms/:form_id/retention',
    prepare: async (w) => ({ params: { form_id: w.formId }, body: { retention_days: 365 } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: w.formId, retention_days: 365 }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // Owners only: a form goes with everything it holds.
    route: 'DELETE /v1/forms/:form_id',
    prepare: async (w) => ({ params: { form_id: (await createForm(t, w.key.key, formBody)).id } }),
    success: (res) => expect(res.body).toBe(''),
    expect: { ...workspaceMember(204, '404 form_not_found'), member_session: '403 owner_required' },
  },

  // ── Webhooks: endpoints in the forms scope; the secret and the deliveries for members' sessions only ──
  {
    route: 'POST /v1/forms/:form_id/webhooks',
    // A fresh form per cell: at most 5 endpoints a form.
    prepare: async (w) => {
      const formId = (await createForm(t, w.key.key, formBody)).id;
      return { params: { form_id: formId }, body: { url: WEBHOOK_URL, description: 'Orders' }, ref: { formId } };
    },
    success: (res, { prepared }) => {
      expect(res.json).toMatchObject({
        id: expect.stringMatching(/^wh_/),
        form_id: prepared.ref!.formId,
        url: WEBHOOK_URL,
        description: 'Orders',
        events: ['submission.created'],
        enabled: true,
      });
      expect(res.json.secret).toMatch(/^whsec_/);
    },
    expect: formsScope(201),
  },
  {
    route: 'GET /v1/forms/:form_id/webhooks',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: { form_id: hook.formId }, ref: { ...hook } };
    },
    success: (res, { prepared }) => {
      expect(res.json.next_cursor).toBeNull();
      expect(res.json.data).toEqual([expect.objectContaining({ id: prepared.ref!.webhookId, form_id: prepared.ref!.formId, url: WEBHOOK_URL })]);
      // A list never holds a secret.
      expect(res.json.data[0]).not.toHaveProperty('secret');
      expect(res.body).not.toContain(prepared.ref!.secret);
    },
    expect: formsScope(200),
  },
  {
    route: 'GET /v1/forms/:form_id/webhooks/:webhook_id',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), ref: { ...hook } };
    },
    success: (res, { prepared }) => {
      expect(res.json).toMatchObject({ id: prepared.ref!.webhookId, form_id: prepared.ref!.formId, enabled: true });
      expect(res.json).not.toHaveProperty('secret');
    },
    expect: formsScope(200),
  },
  {
    route: 'PATCH /v1/forms/:form_id/webhooks/:webhook_id',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), body: { description: 'Renamed', enabled: false }, ref: { ...hook } };
    },
    success: (res, { prepared }) =>
      expect(res.json).toMatchObject({ id: prepared.ref!.webhookId, description: 'Renamed', enabled: false, disabled_reason: 'manual' }),
    expect: formsScope(200),
  },
  {
    route: 'DELETE /v1/forms/:form_id/webhooks/:webhook_id',
    prepare: async (w) => ({ params: webhookParams(await freshWebhook(w)) }),
    success: (res) => expect(res.body).toBe(''),
    expect: formsScope(204),
  },
  {
    // formMemberProcedure: a key, even W's, gets 403 session_required; an outsider does not see the form.
    route: 'GET /v1/forms/:form_id/webhooks/:webhook_id/secret',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), ref: { ...hook } };
    },
    success: (res, { prepared }) => expect(res.json).toEqual({ secret: prepared.ref!.secret }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/rotate-secret',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      return { params: webhookParams(hook), ref: { ...hook } };
    },
    success: (res, { prepared }) => {
      expect(res.json.secret).toMatch(/^whsec_/);
      expect(res.json.secret).not.toBe(prepared.ref!.secret);
      expect(Date.parse(res.json.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    },
    expect: formsScope(201),
  },
  {
    // Rotated once: secret 1 still signs until it is ended.
    route: 'DELETE /v1/forms/:form_id/webhooks/:webhook_id/secrets/:secret_number',
    prepare: async (w) => {
      const hook = await freshWebhook(w);
      const rotated = await t.request('POST', `/v1/forms/${hook.formId}/webhooks/${hook.webhookId}/rotate-secret`, { token: w.key.key });
      if (rotated.status !== 201) throw new Error(`rotation failed: ${rotated.status} ${rotated.body}`);
      return { params: { ...webhookParams(hook), secret_number: '1' } };
    },
    success: (res) => expect(res.json.secrets).toEqual([{ number: 2, created_at: expect.any(String), expires_at: null, public_key: null }]),
    expect: formsScope(200),
  },
  {
    // The endpoint's name never resolves: the test event fails at once, and the route says so (still 200).
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/test',
    prepare: async (w) => ({ params: webhookParams(await freshWebhook(w)) }),
    success: (res) => {
      expect(res.json).toMatchObject({ status: 'failed', status_code: null, response_excerpt: null });
      expect(res.json.error).toEqual(expect.any(String));
    },
    expect: formsScope(200),
  },
  {
    // Deliveries carry submission values: members' sessions only, like reading submissions.
    route: 'GET /v1/forms/:form_id/webhooks/:webhook_id/deliveries',
    prepare: freshDelivery,
    success: (res, { prepared }) => {
      expect(res.json.next_cursor).toBeNull();
      expect(res.json.data).toEqual([
        expect.objectContaining({ id: prepared.ref!.deliveryId, type: 'submission.created', status: 'failed', event_id: expect.stringMatching(/^msg_/) }),
      ]);
      expect(res.json.data[0].payload.data.submission).toMatchObject({ id: prepared.ref!.submissionId, values: { email: 'hook@example.org' } });
    },
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // The events `lfk listen` forwards carry submission values: members' sessions only.
    route: 'GET /v1/forms/:form_id/events',
    prepare: freshDelivery,
    // Without `after`, no events: the cursor of now.
    success: (res) => expect(res.json).toEqual({ data: [], cursor: expect.stringMatching(/^evc_\d+_sub_z{26}$/), has_more: false }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // A recover resends submission values: members' sessions only, as retrying.
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/recover',
    prepare: async (w) => {
      const prepared = await freshDelivery(w);
      return { ...prepared, body: { since: new Date(Date.now() - 3_600_000).toISOString() } };
    },
    // The failed delivery's event is queued again.
    success: (res) => expect(res.json).toEqual({ queued: 1, already_waiting: 0, next_since: null, dry_run: false }),
    expect: workspaceMember(202, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/retry',
    prepare: freshDelivery,
    // A failed delivery is pending again, with the same event.
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.deliveryId, status: 'pending' }),
    expect: workspaceMember(202, '404 form_not_found'),
  },
  {
    // Dropping a delivery decides the fate of a submission's values: members' sessions only, as retrying.
    route: 'POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/discard',
    prepare: freshDelivery,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.deliveryId, status: 'discarded', next_attempt_at: null }),
    expect: workspaceMember(200, '404 form_not_found'),
  },

  // ── The link in a verification email: public, an HTML page either way ───────────────────
  {
    route: 'GET /v1/email-verifications/:token',
    prepare: freshVerificationLink,
    // Opening a link shows its "Verify" button and changes nothing.
    success: htmlPageShowing('<button type="submit">Verify</button>'),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/email-verifications/:token',
    prepare: freshVerificationLink,
    // The button verifies: the token is the credential, so any caller holding it may press it.
    success: htmlPageShowing('Address verified'),
    expect: anyone(200),
  },

  // ── The stop link in an auto-reply: public, an HTML page either way ─────────────────────
  {
    route: 'GET /v1/auto-reply-stops/:token',
    prepare: freshStopLink,
    // Opening it shows its button and changes nothing.
    success: htmlPageShowing('<button type="submit">Stop them</button>'),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auto-reply-stops/:token',
    prepare: freshStopLink,
    // The link is the credential: any caller holding it may press it.
    success: htmlPageShowing('Automatic replies stopped'),
    expect: anyone(200),
  },
];

// ---------------------------------------------------------------------------------------------
// Machinery
// ---------------------------------------------------------------------------------------------

/** Error pages (HTML) carry their code in `<meta name="lfk-error-code">`. */
export function errorCodeOf(res: Res): string | undefined {
  return res.json?.error?.code ?? /<meta name="lfk-error-code" content="([a-z_]+)">/.exec(res.body)?.[1];
}

export async function login(email: string): Promise<string> {
  const res = await t.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.body}`);
  return res.json.session_token;
}

export function sessionAccount(world: World, caller: Caller): Account | null {
  if (caller === 'owner_session') return world.owner;
  if (caller === 'member_session') return world.member;
  if (caller === 'outsider_session') return world.outsider;
  return null;
}

export function tokenOf(world: World, caller: Caller): string | undefined {
  switch (caller) {
    case 'no_credentials': return undefined;
    case 'owner_session': return world.owner.token;
    case 'member_session': return world.member.token;
    case 'outsider_session': return world.outsider.token;
    case 'expired_session': return world.expiredToken;
    case 'signed_out_session': return world.signedOutToken;
    case 'workspace_key': return world.key.key;
    case 'other_workspace_key': return world.otherKey.key;
    case 'revoked_key': return world.revokedKey;
    case 'malformed_bearer': return 'not-a-key';
    case 'bad_checksum_key': return world.badChecksumKey;
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
      owner, member, outsider, ws, key, otherKey,
      revokedKey: revoked.key, expiredToken, signedOutToken, badChecksumKey, formId, apiKeyFormId,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The one loop
// ---------------------------------------------------------------------------------------------

export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
