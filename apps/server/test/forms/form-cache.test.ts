/**
 * Issue 39: a submission reads its form from this process's form cache, not from the database
 * each time. Whatever changes a form — a request to this server, another replica, SQL outside lfk —
 * the database notifies it, and the next submission sees the change: at once in the process that
 * made it, and on another replica as soon as it hears the notification. Only a change made with
 * the trigger switched off goes unseen, for as long as the TTL: the control that shows the forms
 * are served from memory, so that what the other tests see is the notification at work.
 */
import {
  type Account,
  createContactForm,
  ENGINE,
  expectError,
  ORIGIN,
  type Receiver,
  type Res,
  startReceiver,
  startTestServer,
  submit,
  type TestServer,
  until,
  useTestServer,
  VALID,
  verificationTokenSentTo,
} from '@lfk/server/testing';
import { newId } from '@lfk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ENV = { LFK_FORM_CACHE_TTL: '3600', LFK_WEBHOOK_ALLOW_PRIVATE: 'true' };
const OPTIONS = { webhooks: { pollMs: 50 } };
// The server's clock, turned by hand past the TTL.
let clock = new Date();
const t = useTestServer(ENV, { ...OPTIONS, config: { now: () => clock } });
let owner: Account;
// Deliveries are counted by their rows, which stay whatever became of them; a receiver that answers keeps its endpoint enabled.
let receiver: Receiver;

/** Until the server hears the database's notifications its cache is off: waited for, so these tests exercise it. */
async function formCacheOn(server: TestServer): Promise<void> {
  await until('the server to hear form changes', () => server.logs.some((line) => line.includes('hearing form changes; form cache on')));
}

beforeAll(async () => {
  owner = await t.signup();
  receiver = await startReceiver();
  await formCacheOn(t);
});
afterAll(async () => {
  await receiver?.close();
});

const patch = (formId: string, body: unknown) => t.request('PATCH', `/v1/forms/${formId}`, { token: owner.token, body });
const post = (server: TestServer, formId: string, values: Record<string, unknown> = VALID, origin = ORIGIN) => submit(server, formId, values, { origin });

function expectCreated(res: Res): string {
  expect(res.status, res.body).toBe(201);
  return res.json.id;
}

/** A submission taken, after which the server holds the form in memory. */
async function submittedAndCached(server: TestServer, formId: string): Promise<string> {
  const id = expectCreated(await post(server, formId));
  expect(server.server.services.formCache.lookup(formId)?.id).toBe(formId);
  return id;
}

/** Changes a form's row with its trigger off, in one transaction: nobody is told. */
async function changeSilently(server: TestServer, statement: string, params: unknown[]): Promise<void> {
  await server.server.db.fork().transactional(async (em) => {
    await em.execute('alter table forms disable trigger forms_notify_changed');
    await em.execute(statement, params);
    await em.execute('alter table forms enable trigger forms_notify_changed');
  });
}

const deliveriesOf = (submissionId: string) => t.count('webhook_deliveries where submission_id = ?', [submissionId]);
const emailsTo = (submissionId: string) =>
  t.sql<{ to: string }>(`select "to" from outbox_emails where kind = 'submission' and submission_id = ?`, [submissionId]).then((rows) => rows.map((r) => r.to));

describe(`one server (${ENGINE})`, () => {
  it('serves a form from memory: a change the database tells nobody of is not seen until the TTL has passed', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    await changeSilently(t, 'update forms set closed = true where id = ?', [form.id]);
    expectCreated(await post(t, form.id));
    clock = new Date(clock.getTime() + 3_600_000);
    expectError(await post(t, form.id), 403, 'form_closed');
  });

  it('an unknown form is not remembered: once it exists, the next submission finds it', async () => {
    const unknown = newId('form');
    expectError(await post(t, unknown), 404, 'form_not_found');
    const form = await createContactForm(t, owner);
    await t.sql('update forms set id = ? where id = ?', [unknown, form.id]);
    expectCreated(await post(t, unknown));
  });

  it('closed and reopened: the very next submission is refused, then taken', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    expect((await patch(form.id, { closed: true, closed_message: 'Gone fishing.' })).status).toBe(200);
    expect(expectError(await post(t, form.id), 403, 'form_closed').message).toBe('Gone fishing.');
    expect((await patch(form.id, { closed: false })).status).toBe(200);
    expectCreated(await post(t, form.id));
  });

  it('a field made required: the very next submission without it is refused', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    const schema = [...form.schema.slice(0, 2), { name: 'message', type: 'textarea', required: true }];
    expect((await patch(form.id, { schema })).status).toBe(200);
    expectError(await post(t, form.id), 422, 'validation_failed', { paths: ['message'] });
    expectCreated(await post(t, form.id, { ...VALID, message: 'hello' }));
  });

  it('its origins changed: the old origin is refused and the new one taken, preflights included', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    const preflight = (origin: string) =>
      t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, { headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight(ORIGIN)).status).toBe(204);
    const moved = 'https://moved.example';
    expect((await patch(form.id, { allowed_origins: [moved] })).status).toBe(200);
    expectError(await preflight(ORIGIN), 403, 'origin_not_allowed');
    expect((await preflight(moved)).headers['access-control-allow-origin']).toBe(moved);
    expectError(await post(t, form.id), 403, 'origin_not_allowed');
    expectCreated(await post(t, form.id, VALID, moved));
  });

  it('switched to submissions with a key only: the very next browser submission is refused', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    expect((await patch(form.id, { submission_mode: 'api_key' })).status).toBe(200);
    expectError(await post(t, form.id), 401, 'api_key_required');
  });

  it('capped at what it holds: the very next submission finds it full', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    expect((await patch(form.id, { max_submissions: 1 })).status).toBe(200);
    expectError(await post(t, form.id), 403, 'form_closed');
  });

  it('a new notify address: the very next submissions notify the old verified one, then the new one once verified', async () => {
    const before = `before-${Date.now()}@example.net`;
    const after = `after-${Date.now()}@example.net`;
    const form = await createContactForm(t, owner, { notify_email: before });
    const verify = async (to: string) => {
      const token = await verificationTokenSentTo(t, to);
      expect((await t.request('POST', `/v1/email-verifications/${token}`, { headers: { accept: 'application/json' } })).status).toBe(200);
    };
    expect(await emailsTo(await submittedAndCached(t, form.id))).toEqual([]);
    await verify(before);
    expect(await emailsTo(expectCreated(await post(t, form.id)))).toEqual([before]);
    expect((await patch(form.id, { notify_email: after })).status).toBe(200);
    expect(await emailsTo(expectCreated(await post(t, form.id)))).toEqual([before]);
    await verify(after);
    expect(await emailsTo(expectCreated(await post(t, form.id)))).toEqual([after]);
    expect((await patch(form.id, { notify_email: null })).status).toBe(200);
    expect(await emailsTo(expectCreated(await post(t, form.id)))).toEqual([]);
  });

  it('a webhook endpoint added, disabled, enabled, deleted: the very next submission queues a delivery or not', async () => {
    const form = await createContactForm(t, owner);
    expect(await deliveriesOf(await submittedAndCached(t, form.id))).toBe(0);
    const added = await t.request('POST', `/v1/forms/${form.id}/webhooks`, { token: owner.token, body: { url: receiver.url } });
    expect(added.status, added.body).toBe(201);
    expect(await deliveriesOf(expectCreated(await post(t, form.id)))).toBe(1);
    const endpoint = `/v1/forms/${form.id}/webhooks/${added.json.id}`;
    expect((await t.request('PATCH', endpoint, { token: owner.token, body: { enabled: false } })).status).toBe(200);
    expect(await deliveriesOf(expectCreated(await post(t, form.id)))).toBe(0);
    expect((await t.request('PATCH', endpoint, { token: owner.token, body: { enabled: true } })).status).toBe(200);
    expect(await deliveriesOf(expectCreated(await post(t, form.id)))).toBe(1);
    expect((await t.request('DELETE', endpoint, { token: owner.token })).status).toBe(204);
    expect(await deliveriesOf(expectCreated(await post(t, form.id)))).toBe(0);
  });

  it('claimed into a workspace: the very next submission with a key of that workspace is taken', async () => {
    const { owner: claimer, key } = await t.signupWithKey();
    const anonymous = await t.request('POST', '/v1/forms', {
      body: {
        name: 'Anonymous',
        schema: [{ name: 'email', type: 'email', required: true }],
        notify_email: `anon-${Date.now()}@example.net`,
        allowed_origins: [ORIGIN],
      },
    });
    expect(anonymous.status, anonymous.body).toBe(201);
    const formId = anonymous.json.id as string;
    expectCreated(await post(t, formId, { email: 'ada@example.com' }));
    expect(t.server.services.formCache.lookup(formId)?.workspace).toBeNull();
    // Keys never see an unclaimed form.
    expectError(await submit(t, formId, { email: 'ada@example.com' }, { token: key }), 404, 'form_not_found');
    const claimed = await t.request('POST', `/v1/forms/${formId}/claim`, {
      token: claimer.token,
      body: { claim_token: anonymous.json.claim_token, workspace_id: claimer.workspaceId },
    });
    expect(claimed.status, claimed.body).toBe(200);
    expectCreated(await submit(t, formId, { email: 'ada@example.com' }, { token: key }));
  });

  it('deleted, or its workspace deleted: the very next submission is 404', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    expect((await t.request('DELETE', `/v1/forms/${form.id}`, { token: owner.token })).status).toBe(204);
    expectError(await post(t, form.id), 404, 'form_not_found');

    const leaving = await t.signup();
    const kept = await createContactForm(t, leaving);
    await submittedAndCached(t, kept.id);
    const name = (await t.request('GET', '/v1/workspaces', { token: leaving.token })).json.data[0].name;
    expect((await t.request('DELETE', `/v1/workspaces/${leaving.workspaceId}`, { token: leaving.token, body: { confirm: name } })).status).toBe(204);
    expectError(await post(t, kept.id), 404, 'form_not_found');
    expect(t.server.services.formCache.lookup(kept.id)).toBeUndefined();
  });

  it('changed by SQL outside lfk: the trigger tells the server, and the next submissions see it', async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(t, form.id);
    await t.sql('update forms set closed = true where id = ?', [form.id]);
    // PGlite hands the notification over before the statement resolves; PostgreSQL sends it over the listener's connection.
    if (ENGINE === 'pglite') expectError(await post(t, form.id), 403, 'form_closed');
    else await until('the server to hear that the form closed', async () => (await post(t, form.id)).status === 403);
    expectError(await post(t, form.id), 403, 'form_closed');

    // An endpoint that was off, turned on by SQL: the form's submissions queue deliveries again.
    const hooked = await createContactForm(t, owner);
    const added = await t.request('POST', `/v1/forms/${hooked.id}/webhooks`, { token: owner.token, body: { url: receiver.url } });
    expect(added.status, added.body).toBe(201);
    expect((await t.request('PATCH', `/v1/forms/${hooked.id}/webhooks/${added.json.id}`, { token: owner.token, body: { enabled: false } })).status).toBe(200);
    expect(await deliveriesOf(await submittedAndCached(t, hooked.id))).toBe(0);
    await t.sql('update webhook_endpoints set enabled = true where id = ?', [added.json.id]);
    if (ENGINE === 'pglite') expect(await deliveriesOf(expectCreated(await post(t, hooked.id)))).toBe(1);
    else
      await until(
        'the next submission to queue a delivery to the endpoint enabled by SQL',
        async () => (await deliveriesOf(expectCreated(await post(t, hooked.id)))) === 1,
      );
  });
});

describe(`reading a form (${ENGINE})`, () => {
  const read = (formId: string) => t.request('GET', `/v1/forms/${formId}`, { token: owner.token });

  it('answers from memory on the embedded engine (one process: every change is heard before it resolves) and from the database on PostgreSQL', async () => {
    const form = await createContactForm(t, owner);
    const name = (await read(form.id)).json.name as string;
    await changeSilently(t, 'update forms set name = ? where id = ?', ['Renamed quietly', form.id]);
    // A replica of PostgreSQL may not have heard another's change yet: it reads the row.
    expect((await read(form.id)).json.name).toBe(ENGINE === 'pglite' ? name : 'Renamed quietly');
    clock = new Date(clock.getTime() + 3_600_000);
    expect((await read(form.id)).json.name).toBe('Renamed quietly');
  });

  it('sees every change at once: through the API, by SQL outside lfk, an origin refused, the form deleted', async () => {
    const form = await createContactForm(t, owner);
    expect((await read(form.id)).status).toBe(200);
    expect((await patch(form.id, { name: 'Patched' })).status).toBe(200);
    expect((await read(form.id)).json.name).toBe('Patched');
    await t.sql('update forms set name = ? where id = ?', ['Changed by SQL', form.id]);
    expect((await read(form.id)).json.name).toBe('Changed by SQL');

    // Refusals are noted after their answer: the next read after the note shows it.
    expectError(await post(t, form.id, VALID, 'https://elsewhere.example'), 403, 'origin_not_allowed');
    await until('the refused origin to be noted', async () => (await t.count('forms where id = ? and refused_origins is not null', [form.id])) === 1);
    expect((await read(form.id)).json.refused_origins.map((r: { origin: string }) => r.origin)).toEqual(['https://elsewhere.example']);

    expect((await t.request('DELETE', `/v1/forms/${form.id}`, { token: owner.token })).status).toBe(204);
    expectError(await read(form.id), 404, 'form_not_found');
  });

  it('an unclaimed form is not found, cached or not', async () => {
    const created = await t.request('POST', '/v1/forms', {
      body: { name: 'Nobody yet', notify_email: 'nobody@example.com', allowed_origins: [ORIGIN], schema: [{ name: 'email', type: 'email' }] },
    });
    expect(created.status, created.body).toBe(201);
    const id = created.json.id as string;
    // A submission to it puts it in the cache.
    expect((await post(t, id, { email: 'a@example.com' })).status).toBe(201);
    expectError(await read(id), 404, 'form_not_found');
  });
});

describe(`two replicas (${ENGINE})`, () => {
  let b: TestServer;
  beforeAll(async () => {
    b = await startTestServer({ ...ENV, ...(ENGINE === 'postgresql' ? { DATABASE_URL: t.server.config.databaseUrl! } : {}) }, OPTIONS);
    await formCacheOn(b);
  });
  afterAll(async () => {
    await b?.close();
  });

  it("a change made through one is seen by the other's next submissions", async () => {
    const form = await createContactForm(t, owner);
    await submittedAndCached(b, form.id);
    expect((await patch(form.id, { closed: true })).status).toBe(200);
    await until('B to refuse submissions to the form A closed', async () => (await post(b, form.id)).status === 403);
    expectError(await post(b, form.id), 403, 'form_closed');

    expect((await patch(form.id, { closed: false, allowed_origins: ['https://moved.example'] })).status).toBe(200);
    await until('B to take submissions from the origin A allowed', async () => (await post(b, form.id, VALID, 'https://moved.example')).status === 201);
    expectError(await post(b, form.id), 403, 'origin_not_allowed');

    expect((await t.request('DELETE', `/v1/forms/${form.id}`, { token: owner.token })).status).toBe(204);
    await until('B to find the form A deleted gone', async () => (await post(b, form.id, VALID, 'https://moved.example')).status === 404);
    expect(b.server.services.formCache.lookup(form.id)).toBeUndefined();
  });
});

describe.runIf(ENGINE === 'postgresql')('a lost notification connection (PostgreSQL)', () => {
  it('turns the cache off until it listens again: a change whose notification was lost is still seen', async () => {
    const silently = await createContactForm(t, owner);
    const lost = await createContactForm(t, owner);
    await submittedAndCached(t, silently.id);
    await submittedAndCached(t, lost.id);
    await changeSilently(t, 'update forms set closed = true where id = ?', [silently.id]);
    expectCreated(await post(t, silently.id));
    const hearingBefore = t.logs.filter((line) => line.includes('hearing form changes; form cache on')).length;
    // The NOTIFY goes out at commit, after the listeners were killed: nobody receives it.
    await t.server.db.fork().transactional(async (em) => {
      await em.execute('update forms set closed = true where id = ?', [lost.id]);
      await em.execute("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lfk-listener' and datname = current_database()");
    });
    await until('the server to read the form whose change it did not hear', async () => (await post(t, lost.id)).status === 403);
    // What it missed before the loss is not served from memory either.
    expectError(await post(t, silently.id), 403, 'form_closed');
    await until('the server to listen again', () => t.logs.filter((line) => line.includes('hearing form changes; form cache on')).length > hearingBefore);
    expect(t.logs.some((line) => line.includes('lost the form change channel; form cache off until it is back'))).toBe(true);
    const again = await createContactForm(t, owner);
    await submittedAndCached(t, again.id);
    expect((await patch(again.id, { closed: true })).status).toBe(200);
    expectError(await post(t, again.id), 403, 'form_closed');
  });
});
