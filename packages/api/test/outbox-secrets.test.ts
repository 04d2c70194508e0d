/**
 * A link's token (reset, invitation, verification) waits for the sender sealed, apart from the
 * email's body, which holds a mark in its place: never in the database in the clear. The sender
 * puts it back, for the address it was sent to only.
 */
import type { ClaimedEmail } from '@lfk/db';
import { beforeAll, expect, it } from 'vitest';
import type { Services } from '../src/context.ts';
import { sha256 } from '../src/credentials/secrets.ts';
import { bodyToSend } from '../src/infrastructure/outbox.ts';
import { callerFor, person, testServices } from './world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

async function waiting(to: string, kind: string): Promise<ClaimedEmail> {
  const rows = await services.db
    .fork()
    .execute<ClaimedEmail[]>('select id, kind, "to", subject, body, secret_sealed as "secretSealed", attempts from outbox_emails where "to" = ? and kind = ?', [
      to,
      kind,
    ]);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

it('reset, invitation and verification links are stored sealed, and sent whole', async () => {
  const owner = await person(services);
  const invitee = `invitee-${Date.now()}@example.com`;
  const anonymous = await callerFor(services);
  await anonymous.passwordResets.request({ email: owner.email });
  await services.background.settle();
  await (await callerFor(services, owner.token)).invitations.create({ workspace_id: owner.workspaceId, email: invitee, role: 'member' });
  await anonymous.forms.create({ name: 'Leads', schema: [{ name: 'email', type: 'email' }], notify_email: invitee });

  for (const [to, kind, prefix, table] of [
    [owner.email, 'password_reset', 'lfr_', 'password_resets'],
    [invitee, 'invitation', 'lfi_', 'invitations'],
    [invitee, 'verification', 'lfv_', 'email_verifications'],
  ] as const) {
    const stored = await waiting(to, kind);
    expect(stored.body, kind).toContain('{{lfk:secret}}');
    expect(stored.body, kind).not.toContain(prefix);
    expect(stored.secretSealed, kind).not.toContain(prefix);
    const sent = bodyToSend(stored, services.secretBox);
    const token = new RegExp(`${prefix}[0-9A-Za-z]{43}`).exec(sent)![0];
    // The very token whose hash the link's row keeps.
    const [row] = await services.db.fork().execute(`select 1 from ${table} where token_hash = ?`, [sha256(token)]);
    expect(row, kind).toBeDefined();
    // Copied onto an email to someone else, it does not open.
    expect(() => bodyToSend({ ...stored, to: 'someone-else@example.com' }, services.secretBox)).toThrow();
  }
  // An email without a link is stored as written.
  expect(bodyToSend({ ...(await waiting(invitee, 'invitation')), secretSealed: null, body: 'plain' }, services.secretBox)).toBe('plain');
});
