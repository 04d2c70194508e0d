/**
 * Races into the same row: a double-click, a retry storm, two tabs. Every call that loses a race on
 * a unique thing is refused with that thing's 409 (never a 500), the winner succeeds, and the stored
 * rows are exactly what one call would have left. On PGlite and PostgreSQL alike. That a refusal's
 * body carries the request id of its `X-Request-Id` header is the server's error layer's, checked by
 * every `expectError` in apps/server/test.
 */
import { randomBytes } from 'node:crypto';
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { callerContext, type Services } from '../src/context.ts';
import { sha256 } from '../src/credentials/secrets.ts';
import { createCaller } from '../src/root.ts';
import { TEST_PASSWORD } from '../src/testing.ts';
import { count, sql } from './support/database.ts';
import { createAnonymous, createForm } from './support/forms.ts';
import { createKey } from './support/keys.ts';
import { outcome } from './support/refusals.ts';
import { callerFor, person, testServices } from './world.ts';

const N = 8;

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

/** N copies of one call at once, each with a context of its own (as N requests), each answered `done` or its refusal's status and code. */
function race(call: () => Promise<unknown>): Promise<string[]> {
  return Promise.all(Array.from({ length: N }, () => outcome(call())));
}

/** Each answer is `done` or lfk's 409 `conflict`; returns how many were done. */
function expectWinnersAndConflicts(answers: string[], conflict: string): number {
  for (const answer of answers) expect(['done', `409 ${conflict}`]).toContain(answer);
  return answers.filter((a) => a === 'done').length;
}

/** A person with a key of their personal workspace. */
async function withKey() {
  const owner = await person(services);
  return { owner, key: (await createKey(services, owner)).key };
}

const EMAIL_SCHEMA = [{ name: 'email', type: 'email' }];

describe(`concurrent writes to one unique thing (${ENGINE})`, () => {
  it('signing up with one address N times at once: one signs up, the rest 409 email_taken, one account and one workspace', async () => {
    const email = `race-${Date.now()}@example.com`;
    const answers = await race(async () => (await callerFor(services)).auth.signup({ email, password: TEST_PASSWORD, name: 'Racer' }));
    expect(expectWinnersAndConflicts(answers, 'email_taken')).toBe(1);
    const users = await sql<{ id: string }>(services, 'select id from users where email = ?', [email]);
    expect(users).toHaveLength(1);
    expect(await count(services, 'memberships where user_id = ?', [users[0]!.id])).toBe(1);
    expect(await count(services, `workspaces where name = 'Racer''s workspace'`)).toBe(1);
  });

  it('claiming one form N times at once: one claim, the rest 409 form_already_claimed, one claim event', async () => {
    const owner = await person(services);
    const anonymous = await createAnonymous(services, { name: 'Claim me', schema: EMAIL_SCHEMA, notify_email: 'claim@example.com' });
    const answers = await race(async () =>
      (await callerFor(services, owner.token)).forms.claim({ form_id: anonymous.id, claim_token: anonymous.claim_token, workspace_id: owner.workspaceId }),
    );
    expect(expectWinnersAndConflicts(answers, 'form_already_claimed')).toBe(1);
    expect(await count(services, `audit_events where action = 'form.claimed' and target_id = ?`, [anonymous.id])).toBe(1);
  });

  it('one Idempotency-Key sent N times at once: every answer is the same form, one form stored', async () => {
    const { owner, key } = await withKey();
    const ids: string[] = [];
    const answers = await race(async () => {
      const caller = createCaller(await callerContext(services, { bearer: key, idempotencyKey: 'double-click' }));
      ids.push((await caller.forms.create({ name: 'Once', schema: EMAIL_SCHEMA } as never)).id);
    });
    expect(answers).toEqual(Array(N).fill('done'));
    expect(new Set(ids).size).toBe(1);
    expect(await count(services, 'forms where workspace_id = ?', [owner.workspaceId])).toBe(1);
  });

  it('changing a notify_email N times at once: every change taken, and exactly one live verification link, for the address kept', async () => {
    const { key } = await withKey();
    const form = await createForm(services, key, { name: 'Notify', schema: EMAIL_SCHEMA, notify_email: 'first@example.com' });
    let i = 0;
    const answers = await race(async () => (await callerFor(services, key)).forms.update({ form_id: form.id, notify_email: `next${++i}@example.com` }));
    expect(answers).toEqual(Array(N).fill('done'));
    const [stored] = await sql<{ email: string }>(services, "select notify_emails->0->>'email' as email from forms where id = ?", [form.id]);
    // Links of the addresses taken off the list are kept (issue 50: put back, an address is sent
    // nothing new) but verify nothing while off it; the address on the list has exactly one.
    const links = await sql<{ email: string }>(services, 'select email from email_verifications where form_id = ? and email = ?', [form.id, stored!.email]);
    expect(links).toEqual([{ email: stored!.email }]);
    expect(await count(services, 'email_verifications where form_id = ?', [form.id])).toBe(N + 1);
  });

  it('resending one verification N times at once: one sent, the rest 429 rate_limited, one email queued', async () => {
    const { key } = await withKey();
    const form = await createForm(services, key, { name: 'Resend', schema: EMAIL_SCHEMA });
    const to = `resend-${form.id}@example.com`;
    await sql(services, "update forms set notify_emails = jsonb_build_array(jsonb_build_object('email', ?::text, 'verified', false)) where id = ?", [
      to,
      form.id,
    ]);
    const answers = await race(async () => (await callerFor(services, key)).forms.resendVerification({ form_id: form.id }));
    for (const answer of answers) expect(['done', '429'], answer).toContain(answer.split(' ')[0]);
    expect(answers.filter((a) => a === 'done')).toHaveLength(1);
    expect(await count(services, 'outbox_emails where "to" = ?', [to])).toBe(1);
    expect(await count(services, 'email_verifications where form_id = ?', [form.id])).toBe(1);
  });

  it('confirming a verification link while the notify_email changes: no 500, and never verified for an address no link went to', async () => {
    const { key } = await withKey();
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      const form = await createForm(services, key, { name: 'Verify', schema: EMAIL_SCHEMA, notify_email: 'old@example.com' });
      // A link of our own for the current address (the one emailed is sealed in the outbox).
      const token = `lfv_${randomBytes(32)
        .toString('base64')
        .replace(/[^0-9A-Za-z]/g, '')
        .padEnd(43, 'x')
        .slice(0, 43)}`;
      const id = `evf_${Array.from(randomBytes(26), (b) => '0123456789abcdefghjkmnpqrstvwxyz'[b % 32]).join('')}`;
      await sql(services, 'delete from email_verifications where form_id = ?', [form.id]);
      await sql(services, 'insert into email_verifications (id, form_id, email, token_hash, expires_at, used_at, created_at) values (?, ?, ?, ?, ?, null, ?)', [
        id,
        form.id,
        'old@example.com',
        sha256(token),
        new Date(Date.now() + 3600_000).toISOString(),
        new Date().toISOString(),
      ]);
      const [confirm, patch] = await Promise.all([
        outcome((async () => (await callerFor(services)).emailVerifications.confirm({ token }))()),
        outcome((async () => (await callerFor(services, key)).forms.update({ form_id: form.id, notify_email: 'new@example.com' }))()),
      ]);
      if (confirm !== 'done' && !confirm.startsWith('404 ')) failures.push(`confirm ${confirm}`);
      if (patch !== 'done') failures.push(`patch ${patch}`);
      const [row] = await sql<{ notify_emails: unknown }>(services, 'select notify_emails from forms where id = ?', [form.id]);
      const stored = typeof row!.notify_emails === 'string' ? JSON.parse(row!.notify_emails) : row!.notify_emails;
      if (JSON.stringify(stored) !== JSON.stringify([{ email: 'new@example.com', verified: false }]))
        failures.push(`round ${round}: ${JSON.stringify(stored)}`);
    }
    expect(failures).toEqual([]);
  });
});
