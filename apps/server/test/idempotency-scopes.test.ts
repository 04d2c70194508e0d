/**
 * An `Idempotency-Key` belongs to a caller and to what the write lands in: a submission's to
 * (form, caller), a claimed form's creation to (workspace, caller). The same key on another form
 * or workspace is a new request, not a reuse; on the same one it still replays or conflicts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, countSubmissions, createContactForm, expectCreated, expectError, ORIGIN, submit, useTestServer, VALID } from '@lfk/server/testing';

const t = useTestServer({ LFK_TRUST_PROXY: '127.0.0.1' });
let owner: Account;
let key: string;

beforeAll(async () => {
  owner = await t.signup();
  key = (await t.createKey(owner.token, owner.workspaceId)).key;
});

const idem = (value: string) => ({ 'idempotency-key': value });

describe('submissions: one Idempotency-Key per (form, caller)', () => {
  it('an anonymous visitor sends the same key to two forms: two submissions, no 409', async () => {
    const a = await createContactForm(t, owner);
    const b = await createContactForm(t, owner);
    const visitor = { origin: ORIGIN, ip: '198.51.100.20', headers: idem('checkout-1') };
    expectCreated(await submit(t, a.id, VALID, visitor), a.id);
    expectCreated(await submit(t, b.id, VALID, visitor), b.id);
    expect(await countSubmissions(t, a.id)).toBe(1);
    expect(await countSubmissions(t, b.id)).toBe(1);
  });

  it('a key sends the same Idempotency-Key to two forms of its workspace: two submissions', async () => {
    const a = await createContactForm(t, owner);
    const b = await createContactForm(t, owner);
    expectCreated(await submit(t, a.id, VALID, { token: key, headers: idem('server-1') }), a.id);
    expectCreated(await submit(t, b.id, VALID, { token: key, headers: idem('server-1') }), b.id);
    expect(await countSubmissions(t, b.id)).toBe(1);
  });

  it('on the same form the key still replays the same request and refuses a different one', async () => {
    const form = await createContactForm(t, owner);
    const visitor = { origin: ORIGIN, ip: '198.51.100.21', headers: idem('retry-me') };
    const first = await submit(t, form.id, VALID, visitor);
    expectCreated(first, form.id);
    const again = await submit(t, form.id, VALID, visitor);
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expectError(await submit(t, form.id, { ...VALID, name: 'Eve' }, visitor), 409, 'idempotency_key_reused');
    // Another visitor's identical key on the same form is theirs alone.
    expectCreated(await submit(t, form.id, VALID, { ...visitor, ip: '198.51.100.22' }), form.id);
    expect(await countSubmissions(t, form.id)).toBe(2);
  });

  it('a forwarded address of any length (a proxy passes what it was given) is a 201, not a 500', async () => {
    const form = await createContactForm(t, owner);
    const odd = { origin: ORIGIN, ip: 'x'.repeat(300), headers: idem('long-address') };
    expectCreated(await submit(t, form.id, VALID, odd), form.id);
    expect((await submit(t, form.id, VALID, odd)).headers['idempotent-replayed']).toBe('true');
    expect(await countSubmissions(t, form.id)).toBe(1);
  });
});

describe('form creation: one Idempotency-Key per (workspace, caller)', () => {
  const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email' }] };

  it('a person creates a form in each of two workspaces with the same key: two forms, no 409', async () => {
    const second = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'Second' } });
    expect(second.status, second.body).toBe(201);
    const inFirst = await t.request('POST', '/v1/forms', {
      token: owner.token,
      body: { ...formBody, workspace_id: owner.workspaceId },
      headers: idem('nightly-form'),
    });
    const inSecond = await t.request('POST', '/v1/forms', {
      token: owner.token,
      body: { ...formBody, workspace_id: second.json.id },
      headers: idem('nightly-form'),
    });
    expect(inFirst.status, inFirst.body).toBe(201);
    expect(inSecond.status, inSecond.body).toBe(201);
    expect(inSecond.json.workspace_id).toBe(second.json.id);
    expect(inSecond.json.id).not.toBe(inFirst.json.id);
  });

  it('an anonymous creation from a forwarded address of any length is a 201 and replays, not a 500', async () => {
    const headers = { ...idem('anon-long'), 'x-forwarded-for': 'y'.repeat(300) };
    const body = { ...formBody, notify_email: 'anon@example.com' };
    const first = await t.request('POST', '/v1/forms', { body, headers });
    expect(first.status, first.body).toBe(201);
    const again = await t.request('POST', '/v1/forms', { body, headers });
    expect(again.status, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json.id).toBe(first.json.id);
  });
});
