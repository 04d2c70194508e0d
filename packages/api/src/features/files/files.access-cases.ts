/**
 * The authorization matrix's rows for files: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, anyone, createForm, type Prepared, submitMultipart, t, workspaceMember, type World } from '../../test-tables/access.ts';

/** A fresh submission with one file (a form of W with a file field, sent with W's key). */
async function freshFile(w: World): Promise<Prepared> {
  const form = await createForm(t, w.key.key, { name: 'Uploads', schema: [{ name: 'doc', type: 'file', required: true }] });
  const submitted = await submitMultipart(t, form.id, [{ name: 'doc', file: 'hello, file', filename: 'hello.txt' }], { token: w.key.key });
  if (submitted.status !== 201) throw new Error(`submission failed: ${submitted.status} ${submitted.body}`);
  const [file] = await t.sql<{ id: string }>('select id from submission_files where submission_id = ?', [submitted.json.id]);
  const link = new URL(t.server.services.files.links.url(file!.id, new Date(Date.now() + 3_600_000)));
  return { params: { form_id: form.id, submission_id: submitted.json.id, file_id: file!.id, token: link.pathname.split('/').pop()! } };
}

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/forms/:form_id/submissions/:submission_id/files/:file_id',
    prepare: freshFile,
    success: (res) => expect(res.body).toBe('hello, file'),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    // A signed link is its own credential: whoever holds it, with any credential or none.
    route: 'GET /v1/files/:token',
    prepare: freshFile,
    success: (res) => expect(res.body).toBe('hello, file'),
    expect: anyone(200),
  },
];
