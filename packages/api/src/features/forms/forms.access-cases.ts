/**
 * The authorization matrix's rows for forms: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, createForm, formBody, formsScope, t, workspaceMember } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'POST /v1/forms',
    // With credentials the body names W: a session must, and a key must match it.
    // Without credentials the form is born unclaimed, and then it needs a notify_email.
    prepare: async (w, caller) =>
      caller === 'no_credentials' ? { body: { ...formBody, notify_email: 'anonymous@example.com' } } : { body: { ...formBody, workspace_id: w.ws } },
    success: (res, { w, caller }) =>
      caller === 'no_credentials'
        ? expect(res.json).toMatchObject({ state: 'unclaimed', workspace_id: null, claim_token: expect.stringMatching(/^lfc_/) })
        : expect(res.json).toMatchObject({ state: 'claimed', workspace_id: w.ws }),
    expect: { ...formsScope(201, '404 workspace_not_found'), no_credentials: 201 },
  },
  {
    route: 'GET /v1/forms/:form_id',
    prepare: async (w) => ({ params: { form_id: w.formId } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: w.formId, workspace_id: w.ws, state: 'claimed' }),
    expect: formsScope(200),
  },
  {
    route: 'PATCH /v1/forms/:form_id',
    // A fresh form per cell, so a rename in one cell is never what another reads.
    prepare: async (w) => {
      const created = await t.request('POST', '/v1/forms', { token: w.key.key, body: formBody });
      if (created.status !== 201) throw new Error(`form create failed: ${created.status} ${created.body}`);
      return { params: { form_id: created.json.id }, body: { name: 'Renamed' }, ref: { formId: created.json.id } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.formId, name: 'Renamed' }),
    expect: formsScope(200),
  },
  {
    route: 'POST /v1/forms/:form_id/resend-verification',
    // A fresh form per cell with an address, made long enough ago that a resend is due.
    prepare: async (w) => {
      const formId = (await createForm(t, w.key.key, { ...formBody, notify_email: 'notify@example.com' })).id;
      await t.sql('update forms set verification_sent_at = ? where id = ?', [new Date(Date.now() - 3600_000).toISOString(), formId]);
      return { params: { form_id: formId } };
    },
    success: (res) => expect(res.json).toEqual({ sent_to: 'n***@example.com', sent_to_all: ['n***@example.com'] }),
    expect: formsScope(202),
  },
  {
    route: 'POST /v1/forms/:form_id/claim',
    // A fresh unclaimed form per cell, claimed into W.
    prepare: async (w) => {
      const res = await t.request('POST', '/v1/forms', { body: { ...formBody, notify_email: 'claim@example.com' } });
      if (res.status !== 201) throw new Error(`anonymous create failed: ${res.status} ${res.body}`);
      return { params: { form_id: res.json.id }, body: { claim_token: res.json.claim_token, workspace_id: w.ws }, ref: { formId: res.json.id } };
    },
    success: (res, { w, prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.formId, state: 'claimed', workspace_id: w.ws }),
    expect: workspaceMember(200),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/forms',
    success: (res, { w }) => expect(res.json.data.map((f: { id: string }) => f.id)).toContain(w.formId),
    expect: workspaceMember(200),
  },
  {
    // Members' sessions: a shorter retention deletes submissions, which a key (that cannot read them) may not.
    route: 'PUT /v1/forms/:form_id/retention',
    prepare: async (w) => ({ params: { form_id: w.formId }, body: { retention_days: 365 } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: w.formId, retention_days: 365 }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // Owners only: a form goes with everything it holds.
    route: 'DELETE /v1/forms/:form_id',
    prepare: async (w) => ({ params: { form_id: (await createForm(t, w.key.key, formBody)).id } }),
    success: (res) => expect(res.body).toBe(''),
    expect: { ...workspaceMember(204, '404 form_not_found'), member_session: '403 owner_required' },
  },
];
