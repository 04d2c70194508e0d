import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Services } from '../../src/context.ts';
import type { RouterOutputs } from '../../src/root.ts';
import { sql } from './database.ts';
import { callerFor } from '../world.ts';

export const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

/** A form made as `bearer` (a key, or a session with `workspace_id` in `body`), as `forms.create` answers it. */
export async function createForm(services: Services, bearer: string, body: Record<string, unknown>): Promise<RouterOutputs['forms']['create']> {
  return (await callerFor(services, bearer)).forms.create(body as never);
}

/** Values a contact form (`createContactForm`) takes. */
export const VALID = { name: 'Ada', email: 'ada@example.com' };

/** A claimed contact form (name, email, message) of `who`'s workspace, made with `who`'s session, with `overrides` (spam, retention…) set at creation. */
export function createContactForm(
  services: Services,
  who: { token: string; workspaceId: string },
  overrides: Record<string, unknown> = {},
): Promise<RouterOutputs['forms']['create']> {
  return createForm(services, who.token, {
    name: 'Contact',
    schema: [
      { name: 'name', type: 'text', required: true },
      { name: 'email', type: 'email', required: true },
      { name: 'message', type: 'textarea' },
    ],
    workspace_id: who.workspaceId,
    ...overrides,
  });
}

/** An unclaimed form, made without credentials, with the claim token it was answered with. */
export async function createAnonymous(
  services: Services,
  extra: Record<string, unknown> = {},
): Promise<RouterOutputs['forms']['create'] & { claim_token: string }> {
  const created = await (await callerFor(services)).forms.create({
    name: unique('Anon form'),
    schema: [{ name: 'email', type: 'email', required: true }],
    notify_email: `${unique('anon')}@example.com`,
    ...extra,
  } as never);
  return created as RouterOutputs['forms']['create'] & { claim_token: string };
}

/** The form's stored row. */
export async function formRow(services: Services, id: string): Promise<Record<string, any>> {
  const rows = await sql(services, 'select * from forms where id = ?', [id]);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}
