/**
 * What the form files share: a server of their own, and the builders and readers of forms, projects and audit events.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { type Res, type TestServer, useTestServer } from '@lfk/server/testing';

export let t: TestServer;
/** The test file's server, on a fresh database: started before the file's tests, closed after them. */
export function useWorld(): void {
  t = useTestServer();
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
export const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;
export const address = (label: string) => `${unique(label)}@example.com`;

export const SCHEMA = [{ name: 'email', type: 'email', required: true }];

export function anonymousBody(extra: Record<string, unknown> = {}) {
  return { name: unique('Anon form'), schema: SCHEMA, notify_email: address('anon'), ...extra };
}

export function expectRetryAfter(res: Res) {
  const value = String(res.headers['retry-after']);
  expect(value, 'Retry-After').toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
}

export async function createAnonymous(server: TestServer, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const res = await server.request('POST', '/v1/forms', { body: anonymousBody(extra), ...(headers ? { headers } : {}) });
  if (res.status !== 201) throw new Error(`anonymous create failed: ${res.status} ${res.body}`);
  return res.json as { id: string; claim_token: string; notify_email: string; name: string };
}

export async function defaultProjectOf(token: string, workspaceId: string): Promise<string> {
  const res = await t.request('GET', `/v1/workspaces/${workspaceId}/projects`, { token });
  expect(res.status).toBe(200);
  const defaults = res.json.data.filter((p: { is_default: boolean }) => p.is_default);
  expect(defaults).toHaveLength(1);
  return defaults[0].id;
}

export async function auditEvents(ownerToken: string, workspaceId: string, action: string, targetId: string) {
  const res = await t.request('GET', `/v1/workspaces/${workspaceId}/audit-events?limit=100`, { token: ownerToken });
  expect(res.status).toBe(200);
  return res.json.data.filter((e: { action: string; target: { id: string } | null }) => e.action === action && e.target?.id === targetId);
}

export async function formRow(id: string): Promise<Record<string, any>> {
  const rows = await t.sql('select * from forms where id = ?', [id]);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

export const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

export function countForms(where: string, params: unknown[]): Promise<number> {
  return t.count(`forms where ${where}`, params);
}

// ---------------------------------------------------------------------------------------------
