/**
 * Races into the same row: a double-click, a retry storm, two tabs. Every request that loses a
 * race on a unique thing answers that thing's 409 (never a 500), the winner its success, and the
 * stored rows are exactly what one request would have left. On PGlite and PostgreSQL alike.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENGINE, PASSWORD, type Res, useTestServer } from '@lfk/server/testing';

const N = 8;

const t = useTestServer();

/** N copies of one request at once. */
function race(send: () => Promise<Res>): Promise<Res[]> {
  return Promise.all(Array.from({ length: N }, send));
}

/** Each answer is `ok` or lfk's 409 `conflict`, in the error shape; returns how many were `ok`. */
function expectWinnersAndConflicts(answers: Res[], ok: number, conflict: string): number {
  for (const res of answers) {
    const label = `${res.status} ${res.body.slice(0, 300)}`;
    expect([ok, 409], label).toContain(res.status);
    if (res.status === 409) {
      expect(res.json.error.code, label).toBe(conflict);
      expect(res.json.error.request_id, label).toBe(res.headers['x-request-id']);
    }
  }
  return answers.filter((r) => r.status === ok).length;
}

const count = async (query: string, params: unknown[]) => Number((await t.sql<{ n: unknown }>(query, params))[0]!.n);

describe(`concurrent writes to one unique thing (${ENGINE})`, () => {
  it('signing up with one address N times at once: one 201, the rest 409 email_taken, one account and one workspace', async () => {
    const email = `race-${Date.now()}@example.com`;
    const answers = await race(() => t.request('POST', '/v1/auth/signup', { body: { email, password: PASSWORD, name: 'Racer' } }));
    expect(expectWinnersAndConflicts(answers, 201, 'email_taken')).toBe(1);
    const users = await t.sql<{ id: string }>('select id from users where email = ?', [email]);
    expect(users).toHaveLength(1);
    expect(await count('select count(*) as n from memberships where user_id = ?', [users[0]!.id])).toBe(1);
    expect(await count(`select count(*) as n from workspaces where name = 'Racer''s workspace'`, [])).toBe(1);
  });

  it('claiming one form N times at once: one 200, the rest 409 form_already_claimed, one claim event', async () => {
    const owner = await t.signup();
    const anonymous = await t.request('POST', '/v1/forms', {
      body: { name: 'Claim me', schema: [{ name: 'email', type: 'email' }], notify_email: 'claim@example.com' },
    });
    expect(anonymous.status, anonymous.body).toBe(201);
    const answers = await race(() =>
      t.request('POST', `/v1/forms/${anonymous.json.id}/claim`, {
        token: owner.token,
        body: { claim_token: anonymous.json.claim_token, workspace_id: owner.workspaceId },
      }),
    );
    expect(expectWinnersAndConflicts(answers, 200, 'form_already_claimed')).toBe(1);
    expect(await count(`select count(*) as n from audit_events where action = 'form.claimed' and target_id = ?`, [anonymous.json.id])).toBe(1);
  });

  it('one Idempotency-Key sent N times at once: every answer is the same 201 form, one form stored', async () => {
    const { owner, key } = await t.signupWithKey();
    const answers = await race(() =>
      t.request('POST', '/v1/forms', {
        token: key,
        body: { name: 'Once', schema: [{ name: 'email', type: 'email' }] },
        headers: { 'idempotency-key': 'double-click' },
      }),
    );
    for (const res of answers) expect(res.status, res.body.slice(0, 300)).toBe(201);
    expect(new Set(answers.map((r) => r.json.id)).size).toBe(1);
    expect(await count('select count(*) as n from forms where workspace_id = ?', [owner.workspaceId])).toBe(1);
  });

  it('changing a notify_email N times at once: every answer 200, and exactly one live verification link, for the address kept', async () => {
    const { key } = await t.signupWithKey();
    const form = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Notify', schema: [{ name: 'email', type: 'email' }], notify_email: 'first@example.com' },
    });
    expect(form.status, form.body).toBe(201);
    let i = 0;
    const answers = await race(() =>
      t.request('PATCH', `/v1/forms/${form.json.id}`, { token: key, body: { notify_email: `next${++i}@example.com` } }),
    );
    for (const res of answers) expect(res.status, res.body.slice(0, 300)).toBe(200);
    const [stored] = await t.sql<{ notify_email: string }>('select notify_email from forms where id = ?', [form.json.id]);
    const links = await t.sql<{ email: string }>('select email from email_verifications where form_id = ?', [form.json.id]);
    expect(links).toEqual([{ email: stored!.notify_email }]);
  });

  it('resending one verification N times at once: one 202, the rest 429 rate_limited, one email queued', async () => {
    const { key } = await t.signupWithKey();
    const form = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Resend', schema: [{ name: 'email', type: 'email' }] } });
    const to = `resend-${form.json.id}@example.com`;
    await t.sql('update forms set notify_email = ? where id = ?', [to, form.json.id]);
    const answers = await race(() => t.request('POST', `/v1/forms/${form.json.id}/resend-verification`, { token: key }));
    for (const res of answers) expect([202, 429], `${res.status} ${res.body.slice(0, 300)}`).toContain(res.status);
    expect(answers.filter((r) => r.status === 202)).toHaveLength(1);
    expect(await count('select count(*) as n from outbox_emails where "to" = ?', [to])).toBe(1);
    expect(await count('select count(*) as n from email_verifications where form_id = ?', [form.json.id])).toBe(1);
  });

  it('confirming a verification link while the notify_email changes: no 500, and never verified for an address no link went to', async () => {
    const { key } = await t.signupWithKey();
    const failures: string[] = [];
    for (let round = 0; round < 5; round++) {
      const form = await t.request('POST', '/v1/forms', {
        token: key,
        body: { name: 'Verify', schema: [{ name: 'email', type: 'email' }], notify_email: 'old@example.com' },
      });
      // A link of our own for the current address (the one emailed is only in the outbox).
      const token = `lfv_${randomBytes(32).toString('base64').replace(/[^0-9A-Za-z]/g, '').padEnd(43, 'x').slice(0, 43)}`;
      const id = `evf_${Array.from(randomBytes(26), (b) => '0123456789abcdefghjkmnpqrstvwxyz'[b % 32]).join('')}`;
      await t.sql('delete from email_verifications where form_id = ?', [form.json.id]);
      await t.sql(
        'insert into email_verifications (id, form_id, email, token_hash, expires_at, used_at, created_at) values (?, ?, ?, ?, ?, null, ?)',
        [id, form.json.id, 'old@example.com', createHash('sha256').update(token).digest('hex'), new Date(Date.now() + 3600_000).toISOString(), new Date().toISOString()],
      );
      const [confirm, patch] = await Promise.all([
        t.request('POST', '/trpc/emailVerifications.confirm', { body: { token } }),
        t.request('PATCH', `/v1/forms/${form.json.id}`, { token: key, body: { notify_email: 'new@example.com' } }),
      ]);
      if (![200, 404].includes(confirm.status)) failures.push(`confirm ${confirm.status} ${confirm.body.slice(0, 200)}`);
      if (patch.status !== 200) failures.push(`patch ${patch.status} ${patch.body.slice(0, 200)}`);
      const [row] = await t.sql<{ notify_email: string; notify_email_verified: boolean }>(
        'select notify_email, notify_email_verified from forms where id = ?',
        [form.json.id],
      );
      if (row!.notify_email !== 'new@example.com' || row!.notify_email_verified) failures.push(`round ${round}: ${JSON.stringify(row)}`);
    }
    expect(failures).toEqual([]);
  });
});
