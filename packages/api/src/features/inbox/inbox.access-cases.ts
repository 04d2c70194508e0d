/**
 * The authorization matrix's rows for the inbox: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, formsScope, type Prepared, t, workspaceKey, workspaceMember, type World } from '../../test-tables/access.ts';

/** A submission of its own to W's api_key-mode form, for a cell that deletes or marks it. */
async function freshSubmission(w: World): Promise<Prepared> {
  const submitted = await t.request('POST', `/v1/forms/${w.apiKeyFormId}/submissions`, { token: w.key.key, body: { email: 'inbox@example.org' } });
  if (submitted.status !== 201) throw new Error(`submission failed: ${submitted.status} ${submitted.body}`);
  return { params: { form_id: w.apiKeyFormId, submission_id: submitted.json.id }, ref: { submissionId: submitted.json.id } };
}

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/forms/:form_id/email-previews',
    prepare: async (w) => ({ params: { form_id: w.formId } }),
    // The matrix's form notifies nobody and has no auto-reply: both previews say so.
    success: (res) => expect(res.json).toEqual({ notification: null, auto_reply: null }),
    expect: formsScope(200),
  },
  {
    route: 'POST /v1/forms/:form_id/submissions',
    prepare: async (w) => ({ params: { form_id: w.apiKeyFormId }, body: { email: 'someone@example.org' } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: expect.stringMatching(/^sub_/), form_id: w.apiKeyFormId }),
    expect: workspaceKey(201),
  },
  {
    route: 'GET /v1/forms/:form_id/submissions/:submission_id',
    prepare: async (w) => {
      const created = await t.request('POST', `/v1/forms/${w.apiKeyFormId}/submissions`, { token: w.key.key, body: { email: 'read@example.org' } });
      expect(created.status, created.body).toBe(201);
      return { params: { form_id: w.apiKeyFormId, submission_id: created.json.id }, ref: { id: created.json.id } };
    },
    success: (res, { w, prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.id, form_id: w.apiKeyFormId, data: { email: 'read@example.org' } }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'GET /v1/forms/:form_id/submissions',
    prepare: async (w) => ({ params: { form_id: w.apiKeyFormId } }),
    success: (res, { w }) => {
      expect(res.json.next_cursor === null || typeof res.json.next_cursor === 'string').toBe(true);
      for (const s of res.json.data) expect(s.form_id).toBe(w.apiKeyFormId);
    },
    expect: workspaceMember(200, '404 form_not_found'),
  },
  // Deleting, marking and exporting submissions: members' sessions, as reading them is (a key cannot read them).
  {
    route: 'DELETE /v1/forms/:form_id/submissions/:submission_id',
    prepare: freshSubmission,
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceMember(204, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/submissions/delete',
    prepare: async (w) => {
      const fresh = await freshSubmission(w);
      return { params: { form_id: w.apiKeyFormId }, body: { ids: [fresh.ref!.submissionId] } };
    },
    success: (res) => expect(res.json).toEqual({ deleted: 1 }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/submissions/:submission_id/spam',
    prepare: freshSubmission,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.submissionId, status: 'spam', spam_reason: 'marked' }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/submissions/:submission_id/not-spam',
    prepare: freshSubmission,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.submissionId, status: 'ok', spam_reason: null }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'GET /v1/forms/:form_id/submissions/export',
    prepare: async (w) => ({ params: { form_id: w.apiKeyFormId } }),
    success: (res) => {
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.body.split('\r\n')[0]).toBe('id,created_at,via,email');
    },
    expect: workspaceMember(200, '404 form_not_found'),
  },
];
