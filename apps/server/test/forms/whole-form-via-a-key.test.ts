/**
 * Forms: the whole form (create, read, update), via a key.
 */
import { describe, expect, it } from 'vitest';
import { expectError, verificationTokenSentTo } from '@lfk/server/testing';
import { address, auditEvents, countForms, defaultProjectOf, formRow, json, SCHEMA, t, useWorld } from './fixtures.ts';

useWorld();

const FULL_SCHEMA = [
  { name: 'name', type: 'text', required: true, label: 'Your name' },
  { name: 'message', type: 'textarea', label: 'Message' },
  { name: 'email', type: 'email', required: true },
  { name: 'age', type: 'number' },
  { name: 'site', type: 'url' },
  { name: 'phone', type: 'tel' },
  { name: 'when', type: 'date' },
  { name: 'agree', type: 'checkbox', required: true, label: 'I agree' },
  { name: 'topic', type: 'select', options: ['Sales', 'Support', 'Other'], label: 'Topic' },
];
const FULL_SCHEMA_OUT = FULL_SCHEMA.map((f) => ({ required: false, ...f }));

async function ownerWithKeyAndProject() {
  const { owner, key, id: keyId } = await t.signupWithKey();
  const project = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, {
    token: owner.token,
    body: { name: 'Marketing' },
  });
  expect(project.status, project.body).toBe(201);
  const defaultProject = await defaultProjectOf(owner.token, owner.workspaceId);
  return { owner, key, keyId, projectId: project.json.id as string, defaultProject };
}

describe('the whole form via a key', () => {
  it('creates a form with every field, stores and returns it, and audits form.created', async () => {
    const { owner, key, keyId, projectId } = await ownerWithKeyAndProject();
    const notify = address('Ops').toUpperCase().replace('EXAMPLE.COM', 'Example.com');
    const body = {
      name: '  Contact us  ',
      schema: FULL_SCHEMA,
      submission_mode: 'api_key',
      allowed_origins: ['https://Example.com', 'https://app.example.com:8443'],
      notify_email: notify,
      redirect_url: 'https://example.com/thanks?from=form',
      project_id: projectId,
    };
    const created = await t.request('POST', '/v1/forms', { token: key, body });
    expect(created.status, created.body).toBe(201);
    expect(created.json).toMatchObject({
      workspace_id: owner.workspaceId,
      project_id: projectId,
      name: 'Contact us',
      state: 'claimed',
      schema: FULL_SCHEMA_OUT,
      submission_mode: 'api_key',
      allowed_origins: ['https://example.com', 'https://app.example.com:8443'],
      notify_email: notify.toLowerCase(),
      notify_email_verified: false,
      redirect_url: 'https://example.com/thanks?from=form',
    });
    expect(created.json.claim_token ?? null).toBeNull();
    expect(Date.parse(created.json.created_at)).not.toBeNaN();
    expect(Date.parse(created.json.updated_at)).not.toBeNaN();

    const read = await t.request('GET', `/v1/forms/${created.json.id}`, { token: key });
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const row = await formRow(created.json.id);
    expect(row).toMatchObject({
      workspace_id: owner.workspaceId,
      project_id: projectId,
      name: 'Contact us',
      state: 'claimed',
      submission_mode: 'api_key',
      redirect_url: 'https://example.com/thanks?from=form',
      claim_token_hash: null,
    });
    expect(json(row.schema)).toEqual(FULL_SCHEMA_OUT);
    expect(json(row.allowed_origins)).toEqual(['https://example.com', 'https://app.example.com:8443']);
    expect(json(row.notify_emails)).toEqual([{ email: notify.toLowerCase(), verified: false }]);

    const events = await auditEvents(owner.token, owner.workspaceId, 'form.created', created.json.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      workspace_id: owner.workspaceId,
      actor: { type: 'api_key', id: keyId },
      target: { type: 'form', id: created.json.id },
    });
    expect(JSON.stringify(events)).not.toContain(key);
  });

  it('PATCHes each field on its own, then all together; each change is audited with its fields', async () => {
    const { owner, key, keyId, projectId, defaultProject } = await ownerWithKeyAndProject();
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Before', schema: SCHEMA, allowed_origins: ['https://old.example'] },
    });
    expect(created.status, created.body).toBe(201);
    const id: string = created.json.id;
    expect(created.json.project_id).toBe(defaultProject);

    const newNotify = address('notify');
    const steps: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['name', { name: 'After' }, { name: 'After' }],
      ['schema', { schema: FULL_SCHEMA }, { schema: FULL_SCHEMA_OUT }],
      ['submission_mode', { submission_mode: 'api_key' }, { submission_mode: 'api_key' }],
      [
        'allowed_origins',
        { allowed_origins: ['HTTPS://New.Example:443', 'http://localhost:5173'] },
        { allowed_origins: ['https://new.example', 'http://localhost:5173'] },
      ],
      ['project_id', { project_id: projectId }, { project_id: projectId }],
      ['redirect_url', { redirect_url: 'https://new.example/done' }, { redirect_url: 'https://new.example/done' }],
      ['notify_email', { notify_email: newNotify }, { notify_email: newNotify, notify_email_verified: false, notify_emails: [newNotify] }],
    ];
    let previous = created.json;
    for (const [field, patch, expected] of steps) {
      const res = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: patch });
      expect(res.status, `${field}: ${res.body}`).toBe(200);
      // The patched field changed; nothing else did.
      const { updated_at: _a, ...rest } = res.json;
      const { updated_at: _b, ...before } = previous;
      expect(rest, field).toEqual({ ...before, ...expected });
      const read = await t.request('GET', `/v1/forms/${id}`, { token: key });
      expect(read.json, field).toEqual(res.json);
      previous = res.json;
    }
    const row = await formRow(id);
    expect(row).toMatchObject({
      name: 'After',
      submission_mode: 'api_key',
      project_id: projectId,
      redirect_url: 'https://new.example/done',
    });
    expect(json(row.notify_emails)).toEqual([{ email: newNotify, verified: false }]);
    expect(json(row.schema)).toEqual(FULL_SCHEMA_OUT);

    // All together.
    const together = await t.request('PATCH', `/v1/forms/${id}`, {
      token: key,
      body: {
        name: 'Together',
        schema: SCHEMA,
        submission_mode: 'browser',
        allowed_origins: [],
        project_id: defaultProject,
        redirect_url: 'http://example.org/ok',
        notify_email: null,
      },
    });
    expect(together.status, together.body).toBe(200);
    expect(together.json).toMatchObject({
      id,
      state: 'claimed',
      workspace_id: owner.workspaceId,
      name: 'Together',
      schema: [{ name: 'email', type: 'email', required: true }],
      submission_mode: 'browser',
      allowed_origins: [],
      project_id: defaultProject,
      redirect_url: 'http://example.org/ok',
      notify_email: null,
      notify_email_verified: false,
    });
    expect((await t.request('GET', `/v1/forms/${id}`, { token: key })).json).toEqual(together.json);

    const updates = await auditEvents(owner.token, owner.workspaceId, 'form.updated', id);
    expect(updates).toHaveLength(steps.length + 1);
    for (const event of updates) expect(event.actor).toEqual({ type: 'api_key', id: keyId });
    // Newest first: the combined change, then the single ones in reverse.
    const fieldLists = updates.map((e: { data: { fields: string[] } }) => [...e.data.fields].sort());
    expect(fieldLists).toEqual([
      ['allowed_origins', 'name', 'notify_email', 'project_id', 'redirect_url', 'schema', 'submission_mode'],
      ...steps.map(([field]) => [field]).reverse(),
    ]);
  });

  it('notify_email null clears a verified address; redirect_url null clears it', async () => {
    const { key } = await ownerWithKeyAndProject();
    const notify = address('verify-me');
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Verified', schema: SCHEMA, notify_email: notify, redirect_url: 'https://example.com/thanks' },
    });
    expect(created.status, created.body).toBe(201);
    const id: string = created.json.id;
    const link = `/v1/email-verifications/${await verificationTokenSentTo(t, notify)}`;
    // Opening the link changes nothing; its page's button (a form post) verifies.
    expect((await t.request('GET', link)).status).toBe(200);
    expect((await t.request('GET', `/v1/forms/${id}`, { token: key })).json.notify_email_verified).toBe(false);
    const verified = await t.request('POST', link);
    expect(verified.status).toBe(200);
    expect((await t.request('GET', `/v1/forms/${id}`, { token: key })).json.notify_email_verified).toBe(true);

    // The same address (in other case) is no change: it stays verified.
    const same = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: { notify_email: notify.toUpperCase() } });
    expect(same.status, same.body).toBe(200);
    expect(same.json).toMatchObject({ notify_email: notify, notify_email_verified: true });

    const cleared = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: { notify_email: null } });
    expect(cleared.status, cleared.body).toBe(200);
    expect(cleared.json).toMatchObject({ notify_email: null, notify_email_verified: false });
    expect(json((await formRow(id)).notify_emails)).toEqual([]);
    expectError(await t.request('POST', `/v1/forms/${id}/resend-verification`, { token: key }), 409, 'no_notify_email');

    const noRedirect = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: { redirect_url: null } });
    expect(noRedirect.status, noRedirect.body).toBe(200);
    expect(noRedirect.json.redirect_url).toBeNull();
    expect((await formRow(id)).redirect_url).toBeNull();
  });

  it('a redirect_url that is not http(s) is 400 on create and on PATCH', async () => {
    const { key } = await ownerWithKeyAndProject();
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Redirects', schema: SCHEMA, redirect_url: 'https://example.com/ok' },
    });
    expect(created.status, created.body).toBe(201);
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'ftp://example.com/file',
      'data:text/html,<script>alert(1)</script>',
      'https://user:pw@example.com/',
      '/relative/path',
      'not a url',
      '',
    ]) {
      const onCreate = await t.request('POST', '/v1/forms', {
        token: key,
        body: { name: 'Bad redirect', schema: SCHEMA, redirect_url: bad },
      });
      expectError(onCreate, 400, 'invalid_request', { paths: ['redirect_url'] });
      const onPatch = await t.request('PATCH', `/v1/forms/${created.json.id}`, { token: key, body: { redirect_url: bad } });
      expectError(onPatch, 400, 'invalid_request', { paths: ['redirect_url'] });
    }
    expect((await formRow(created.json.id)).redirect_url).toBe('https://example.com/ok');
    expect(await countForms("name = 'Bad redirect'", [])).toBe(0);
  });
});
