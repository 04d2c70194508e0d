/**
 * The authorization matrix's vocabulary (test-only: nothing the package runs imports it). Each feature
 * declares the rows of its REST routes beside its procedures, in `features/<f>/<f>.access-cases.ts`,
 * in these words: the kinds of caller (columns), what each may get (`anyone`, `signedIn`…), and how a
 * row prepares its cell and checks its success. `index.ts` folds them into one table; the server's
 * suite (apps/server/test/authorization-matrix/) runs its cells, against the server it binds here.
 */
import type { PasskeyAuthenticator, Res } from '@lfk/testing';
import { expect } from 'vitest';
import { type SeededAccount, type SeedOptions, TEST_PASSWORD } from '../testing.ts';

export type Account = SeededAccount;
export const PASSWORD = TEST_PASSWORD;

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

export interface AccessCase {
  /** `METHOD path`, exactly as in `restRoutes`. */
  route: string;
  prepare?: (w: World, caller: Caller) => Promise<Prepared>;
  success: (res: Res, cx: { w: World; caller: Caller; prepared: Prepared }) => void;
  expect: Expectations;
}

/**
 * What of the test server the rows use: the suite that runs the cells binds its own (`bindAccessTables`)
 * before any cell runs, so a row reads `t` when its cell runs, never when it is declared.
 */
export interface TableServer {
  server: { config: { now(): Date; publicUrl: string }; services: { files: { links: { url(fileId: string, expiresAt: Date): string } } } };
  logs: string[];
  request(method: string, url: string, options?: { token?: string; body?: unknown }): Promise<Res>;
  signup(email?: string, options?: SeedOptions): Promise<Account>;
  createKey(token: string, workspaceId: string, name?: string): Promise<{ key: string; id: string }>;
  addMember(workspaceId: string, email: string, role: 'owner' | 'member'): Promise<void>;
  enableAuthenticator(token: string): Promise<{ secret: string; recoveryCodes: string[] }>;
  addPasskey(token: string): Promise<{ device: PasskeyAuthenticator; passkeyId: string }>;
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  count(fromWhere: string, params?: unknown[]): Promise<number>;
}

/** The server harness's helpers the rows use (apps/server/testing's, which a package may not import). */
export interface TableHarness {
  createForm(server: TableServer, token: string | undefined, body: Record<string, unknown>): Promise<{ id: string }>;
  submitMultipart(server: TableServer, formId: string, parts: readonly TablePart[], options?: { token?: string }): Promise<Res>;
}
export type TablePart = { name: string; value: string } | { name: string; file: Buffer | string; filename: string; type?: string };

export let t: TableServer;
let harness: TableHarness | undefined;

/** Binds the server (and its harness's helpers) the cells run against: the server suite's `useWorld`. */
export function bindAccessTables(server: TableServer, helpers: TableHarness): void {
  t = server;
  harness = helpers;
}

function bound(): TableHarness {
  if (!harness) throw new Error('The authorization matrix runs in the server suite, which binds its server first (bindAccessTables).');
  return harness;
}

export const createForm: TableHarness['createForm'] = (server, token, body) => bound().createForm(server, token, body);
export const submitMultipart: TableHarness['submitMultipart'] = (server, formId, parts, options) => bound().submitMultipart(server, formId, parts, options);

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
  no_credentials: ok,
  owner_session: ok,
  member_session: ok,
  outsider_session: ok,
  workspace_key: ok,
  other_workspace_key: ok,
  ...REFUSED_CREDENTIALS,
});

/** Any signed-in person's session; a key is not a person. */
export const signedIn = (ok: Success): Expectations => ({
  no_credentials: '401 unauthenticated',
  owner_session: ok,
  member_session: ok,
  outsider_session: ok,
  workspace_key: '403 session_required',
  other_workspace_key: '403 session_required',
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
  no_credentials: '401 unauthenticated',
  owner_session: '401 api_key_required',
  member_session: '401 api_key_required',
  outsider_session: '401 api_key_required',
  workspace_key: ok,
  other_workspace_key: ok,
  ...REFUSED_CREDENTIALS,
});

/** A key of the form's workspace, and nothing else. */
export const workspaceKey = (ok: Success): Expectations => ({
  no_credentials: '401 api_key_required',
  owner_session: '401 api_key_required',
  member_session: '401 api_key_required',
  outsider_session: '401 api_key_required',
  workspace_key: ok,
  other_workspace_key: '403 forbidden',
  ...REFUSED_CREDENTIALS,
});

/** A success that is an HTML page showing `text`. */
export const htmlPageShowing = (text: string) => (res: Res) => {
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toContain(text);
};

// ---------------------------------------------------------------------------------------------
// What several features' rows share
// ---------------------------------------------------------------------------------------------

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
