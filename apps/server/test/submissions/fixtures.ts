/**
 * What the submission files share: a server with an owner, a member, an outsider and their keys; contact
 * forms; posting them as JSON or as an HTML form; reading what was stored.
 */
import { beforeAll, expect } from 'vitest';
import { type Account, countSubmissions, createContactForm, FORM_URLENCODED, ORIGIN, type Res, type TestServer, useTestServer } from '@lfk/server/testing';

export const LOCAL_ORIGIN = 'http://localhost:3000';

export const contactSchema = [
  { name: 'name', type: 'text', required: true },
  { name: 'email', type: 'email', required: true },
  { name: 'age', type: 'number' },
  { name: 'agree', type: 'checkbox' },
];

export let t: TestServer;
export let owner: Account;
export let member: Account;
export let outsider: Account;
export let ownerKey: { key: string; id: string };
export let outsiderKey: { key: string; id: string };

/**
 * The test file's server, on a fresh database, with an owner (and a key), a member of the owner's
 * workspace, and an outsider (and a key): made before the file's tests, closed after them.
 */
export function useWorld(): void {
  t = useTestServer();
  beforeAll(async () => {
    ({ owner, member, outsider } = await t.signupTeam());
    ownerKey = await t.createKey(owner.token, owner.workspaceId, 'server');
    outsiderKey = await t.createKey(outsider.token, outsider.workspaceId, 'elsewhere');
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** A claimed form in the owner's workspace (made with the owner's session). */
export function createForm(overrides: Record<string, unknown> = {}, server: TestServer = t, who: Account = owner) {
  return createContactForm(server, who, { schema: contactSchema, allowed_origins: [ORIGIN, LOCAL_ORIGIN], ...overrides });
}

export interface SubmitOptions {
  origin?: string;
  key?: string;
  headers?: Record<string, string>;
  /** Sent as is (with `contentType`), instead of `body` as JSON. */
  raw?: string | Buffer;
  contentType?: string;
  server?: TestServer;
}

export function submit(formId: string, body: unknown, options: SubmitOptions = {}): Promise<Res> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  const server = options.server ?? t;
  return server.request('POST', `/v1/forms/${formId}/submissions`, {
    ...(options.key ? { token: options.key } : {}),
    ...(options.raw !== undefined ? { raw: options.raw } : { body }),
    headers,
  });
}

/** A form post as a browser sends it: urlencoded, with an Origin. */
export function postForm(formId: string, fields: string, options: SubmitOptions = {}): Promise<Res> {
  return submit(formId, undefined, { origin: ORIGIN, ...options, raw: fields, contentType: FORM_URLENCODED });
}

export interface StoredRow {
  id: string;
  data: Record<string, unknown>;
  source: string;
  api_key_id: string | null;
}

/** The form's submissions as stored, oldest first. */
export async function storedRows(formId: string, server: TestServer = t): Promise<StoredRow[]> {
  const rows = await server.sql<{ id: string; data: unknown; source: string; api_key_id: string | null }>(
    'select id, data, source, api_key_id from submissions where form_id = ? order by id',
    [formId],
  );
  return rows.map((row) => ({
    ...row,
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
  }));
}

export function countRows(formId: string, server: TestServer = t): Promise<number> {
  return countSubmissions(server, formId);
}

export function corsHeaderNames(res: Res): string[] {
  return Object.keys(res.headers).filter((name) => name.toLowerCase().startsWith('access-control-'));
}

export function headerList(res: Res, name: string): string[] {
  return String(res.headers[name] ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

export function expectCreated(res: Res, formId: string) {
  expect(res.status, res.body).toBe(201);
  expect(Object.keys(res.json).sort()).toEqual(['created_at', 'form_id', 'id']);
  expect(res.json.id).toMatch(/^sub_/);
  expect(res.json.form_id).toBe(formId);
  expect(new Date(res.json.created_at).toISOString()).toBe(res.json.created_at);
}

export function withoutRequestId(res: Res) {
  const { request_id: _ignored, ...rest } = res.json.error;
  return rest;
}

export async function listAll(formId: string, token: string, limit?: number) {
  const seen: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams();
    if (limit !== undefined) params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const query = params.toString();
    const res = await t.request('GET', `/v1/forms/${formId}/submissions${query ? `?${query}` : ''}`, { token });
    expect(res.status, res.body).toBe(200);
    if (limit !== undefined) expect(res.json.data.length).toBeLessThanOrEqual(limit);
    seen.push(...res.json.data);
    cursor = res.json.next_cursor;
    pages++;
    if (pages > 50) throw new Error('pagination does not end');
  } while (cursor);
  return { items: seen, pages };
}
