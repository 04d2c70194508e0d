/**
 * Files on the real backends beside the data directory: a real clamd scanning each upload
 * (`LFK_CLAMD_URL`, an EICAR-only signature database) and a real S3-protocol server (`LFK_S3_*`,
 * s3rver in its own process). What a person sees: an infected file kept, quarantined, sent to no
 * webhook and downloadable by nobody; a scanner that is down refuses the upload with a 503 and
 * stores nothing; on S3, the same submission stored in the bucket and gone from it when deleted.
 */
import { sweepObjects } from '@lfk/api';
import {
  type Account,
  type Clamd,
  createForm,
  describeWithClamd,
  EICAR,
  EICAR_SIGNATURE,
  type S3Server,
  s3Env,
  startClamd,
  startS3Server,
  storedObjects,
  submitMultipart,
  useTestServer,
} from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PDF = Buffer.from('%PDF-1.7\n%lfk\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
const SCHEMA = [{ name: 'doc', type: 'file', required: true }];

describeWithClamd('uploads scanned by clamd', () => {
  let clamd: Clamd;
  beforeAll(async () => {
    clamd = await startClamd();
  });
  afterAll(() => clamd?.close());
  const t = useTestServer(() => ({ LFK_CLAMD_URL: clamd.url, LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }));
  let owner: Account;
  let key: string;
  let formId: string;

  beforeAll(async () => {
    ({ owner, key } = await t.signupWithKey());
    formId = (await createForm(t, key, { name: 'Scanned', schema: SCHEMA })).id;
    // An endpoint that listens: a clean submission queues a delivery for it, an infected one does not.
    const hook = await t.request('POST', `/v1/forms/${formId}/webhooks`, { token: key, body: { url: 'http://127.0.0.1:9/hook' } });
    expect(hook.status, hook.body).toBe(201);
  });

  it('keeps an infected file quarantined: the owners see why, no webhook is sent, nobody can download it', async () => {
    const clean = await submitMultipart(t, formId, [{ name: 'doc', file: PDF, filename: 'clean.pdf' }], { token: key });
    expect(clean.status, clean.body).toBe(201);
    const infected = await submitMultipart(t, formId, [{ name: 'doc', file: EICAR, filename: 'invoice.pdf' }], { token: key });
    expect(infected.status, infected.body).toBe(201);

    const read = await t.request('GET', `/v1/forms/${formId}/submissions/${infected.json.id}`, { token: owner.token });
    expect(read.json.files).toMatchObject([{ name: 'invoice.pdf', status: 'quarantined', malware: EICAR_SIGNATURE }]);
    const cleanRead = await t.request('GET', `/v1/forms/${formId}/submissions/${clean.json.id}`, { token: owner.token });
    expect(cleanRead.json.files).toMatchObject([{ name: 'clean.pdf', status: 'stored', malware: null }]);

    expect(await t.count('webhook_deliveries where submission_id = ?', [clean.json.id])).toBe(1);
    // The clean one's delivery carries its file, with a signed link that opens it without a session.
    const [delivery] = await t.sql<{ payload: string }>('select payload from webhook_deliveries where submission_id = ?', [clean.json.id]);
    const [sent] = JSON.parse(delivery!.payload).data.submission.files;
    expect(sent).toMatchObject({ name: 'clean.pdf', status: 'stored', size: PDF.length, content_type: 'application/pdf' });
    const opened = await t.request('GET', new URL(sent.url).pathname);
    expect(opened.status).toBe(200);
    expect(opened.body).toBe(PDF.toString());
    expect(await t.count('webhook_deliveries where submission_id = ?', [infected.json.id])).toBe(0);

    const fileId = read.json.files[0].id;
    const download = await t.request('GET', `/v1/forms/${formId}/submissions/${infected.json.id}/files/${fileId}`, { token: owner.token });
    expect(download.status).toBe(403);
    expect(download.json.error.code).toBe('file_quarantined');
    // Signed links: an export carries none for it, and a forged-in-the-server link still opens nothing.
    const exported = await t.request('GET', `/v1/forms/${formId}/submissions/export?format=jsonl`, { token: owner.token });
    const line = exported.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.id === infected.json.id);
    expect(line.files[0].url).toBeNull();
    const link = new URL(t.server.services.files.links.url(fileId, new Date(Date.now() + 60_000)));
    expect((await t.request('GET', link.pathname)).status).toBe(404);
  });

  it('refuses an upload with 503 scanner_unavailable while clamd is down, and stores nothing', async () => {
    const submissions = await t.count('submissions where form_id = ?', [formId]);
    const objects = await storedObjects(t);
    await clamd.close();
    const res = await submitMultipart(t, formId, [{ name: 'doc', file: PDF, filename: 'later.pdf' }], { token: key });
    expect(res.status, res.body).toBe(503);
    expect(res.json.error.code).toBe('scanner_unavailable');
    expect(res.headers['retry-after']).toBe('5');
    expect(await t.count('submissions where form_id = ?', [formId])).toBe(submissions);
    expect(await storedObjects(t)).toBe(objects);
  });
});

describe('uploads stored in an S3 bucket', () => {
  let s3: S3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3?.close());
  const t = useTestServer(() => s3Env(s3));

  it('stores the file in the bucket under a key that says nothing of it, serves ranges from it, and empties it when the workspace goes', async () => {
    const { owner, key } = await t.signupWithKey();
    const form = await createForm(t, key, { name: 'On S3', schema: SCHEMA });
    const res = await submitMultipart(t, form.id, [{ name: 'doc', file: PDF, filename: 'acme-contract.pdf' }], { token: key });
    expect(res.status, res.body).toBe(201);
    expect(t.server.services.files.storage.kind).toBe('s3');
    const keys: string[] = [];
    for await (const objectKey of t.server.services.files.storage.list()) keys.push(objectKey);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);

    const read = await t.request('GET', `/v1/forms/${form.id}/submissions/${res.json.id}`, { token: owner.token });
    const url = `/v1/forms/${form.id}/submissions/${res.json.id}/files/${read.json.files[0].id}`;
    const whole = await t.request('GET', url, { token: owner.token });
    expect(whole.status).toBe(200);
    expect(whole.body).toBe(PDF.toString());
    const part = await t.request('GET', url, { token: owner.token, headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.body).toBe('PDF');

    const workspace = await t.request('GET', `/v1/workspaces`, { token: owner.token });
    const name = workspace.json.data.find((w: { id: string }) => w.id === owner.workspaceId).name;
    const deleted = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}`, { token: owner.token, body: { confirm: name } });
    expect(deleted.status, deleted.body).toBe(204);
    // The sweep the server runs on its own may have been first: either way, the object is gone after one.
    await sweepObjects(t.server.db, t.server.services.files.storage, new Date());
    expect(await storedObjects(t)).toBe(0);
  });

  it('answers every file read while the bucket is unreachable as an upload is answered: 503 storage_unavailable with Retry-After', async () => {
    const { owner, key } = await t.signupWithKey();
    const form = await createForm(t, key, { name: 'On S3, then not', schema: SCHEMA });
    const res = await submitMultipart(t, form.id, [{ name: 'doc', file: PDF, filename: 'a.pdf' }], { token: key });
    expect(res.status, res.body).toBe(201);
    const [file] = (await t.request('GET', `/v1/forms/${form.id}/submissions/${res.json.id}`, { token: owner.token })).json.files;
    const link = new URL(t.server.services.files.links.url(file.id, new Date(Date.now() + 60_000)));

    await s3.close();
    const answers = [
      await t.request('GET', `/v1/forms/${form.id}/submissions/${res.json.id}/files/${file.id}`, { token: owner.token }),
      await t.request('GET', `/v1/forms/${form.id}/submissions/${res.json.id}/files/${file.id}`, { token: owner.token, headers: { range: 'bytes=0-3' } }),
      await t.request('GET', link.pathname),
      await submitMultipart(t, form.id, [{ name: 'doc', file: PDF, filename: 'b.pdf' }], { token: key }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(503);
      expect(answer.json.error.code).toBe('storage_unavailable');
      expect(answer.headers['retry-after']).toBe('5');
    }
    // Deleting a submission needs no storage: its objects are swept once the bucket is back.
    const deleted = await t.request('POST', `/v1/forms/${form.id}/submissions/delete`, { token: owner.token, body: { ids: [res.json.id] } });
    expect(deleted.status, deleted.body).toBe(200);
  });
});
