/**
 * Files with the client, against a real listening server: a multipart submission (`submitWithFiles`),
 * a member's download (`downloadFile`, ranges too) and a signed link (`openFileLink`); refusals as
 * `LfkResponseError`s that `lfkErrorOf` reads.
 */
import { createHash, randomUUID } from 'node:crypto';
import { type Account, thrown, useTestServer } from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createLfkClient,
  downloadFile,
  exportSubmissions,
  type LfkSubmissionFile,
  LfkResponseError,
  lfkErrorOf,
  openFileLink,
  submitWithFiles,
} from '../src/index.ts';

const t = useTestServer();
let baseUrl: string;
let owner: Account;
let key: string;
let formId: string;

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(1024, 0x20), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 1)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  baseUrl = await t.server.app.listen({ port: 0, host: '127.0.0.1' });
  ({ owner, key } = await t.signupWithKey());
  const form = await createLfkClient({ baseUrl, apiKey: key }).forms.create.mutate({
    name: 'Applications',
    schema: [
      { name: 'name', type: 'text', required: true },
      { name: 'age', type: 'number' },
      { name: 'cv', type: 'file', required: true, accept: ['application/pdf'] },
      { name: 'photos', type: 'file', multiple: true, accept: ['image/*'] },
    ],
  });
  formId = form.id;
});

describe('submitWithFiles', () => {
  it('sends values and files as multipart: stored with the submission, described by their bytes; a retry with its key stores nothing twice', async () => {
    const idempotencyKey = randomUUID();
    const submission = {
      data: { name: 'Ada', age: 36 },
      files: {
        cv: new File([PDF], 'Ada CV.pdf', { type: 'application/pdf' }),
        photos: [new Blob([PNG]), { name: 'second.png', type: 'image/png', data: new Blob([PNG]) }],
      },
      idempotencyKey,
    };
    const created = await submitWithFiles({ baseUrl, apiKey: key }, formId, submission);
    expect(created).toMatchObject({ id: expect.stringMatching(/^sub_/), form_id: formId, created_at: expect.any(String) });
    const retried = await submitWithFiles({ baseUrl, apiKey: key }, formId, submission);
    expect(retried).toEqual(created);
    expect(await t.count('submission_files where submission_id = ?', [created.id])).toBe(3);

    const read = await createLfkClient({ baseUrl, sessionToken: owner.token }).submissions.get.query({ form_id: formId, submission_id: created.id });
    const files: LfkSubmissionFile[] = read.files;
    expect(files.map((f) => [f.field, f.name, f.size, f.content_type, f.sha256, f.status])).toEqual([
      ['cv', 'Ada CV.pdf', PDF.length, 'application/pdf', sha256(PDF), 'stored'],
      ['photos', 'blob', PNG.length, 'image/png', sha256(PNG), 'stored'],
      ['photos', 'second.png', PNG.length, 'image/png', sha256(PNG), 'stored'],
    ]);
    expect(read.data).toEqual({ name: 'Ada', age: 36, cv: [files[0]!.id], photos: [files[1]!.id, files[2]!.id] });
  });

  it("lfk's refusals are LfkResponseErrors: a type the field does not take (415), a missing file (422), a wrong key (401)", async () => {
    const html = new File(['<!doctype html><script>alert(1)</script>'], 'cv.pdf', { type: 'application/pdf' });
    const before = await t.count('submissions where form_id = ?', [formId]);
    const refused = await thrown(submitWithFiles({ baseUrl, apiKey: key }, formId, { data: { name: 'Eve' }, files: { cv: html } }));
    expect(refused).toBeInstanceOf(LfkResponseError);
    const problem = lfkErrorOf(refused);
    expect(problem).toMatchObject({ code: 'file_type_not_accepted', status: 415, requestId: expect.any(String) });
    expect(problem!.details.map((d) => d.path)).toEqual(['cv']);

    const missing = lfkErrorOf(await thrown(submitWithFiles({ baseUrl, apiKey: key }, formId, { data: { name: 'Eve' }, files: { photos: new Blob([PNG]) } })));
    expect(missing).toMatchObject({ code: 'invalid_submission', status: 422 });
    expect(missing!.details.map((d) => d.path)).toEqual(['cv']);

    const badKey = lfkErrorOf(
      await thrown(submitWithFiles({ baseUrl, apiKey: `lfk_${'x'.repeat(36)}` }, formId, { data: { name: 'Eve' }, files: { cv: new Blob([PDF]) } })),
    );
    expect(badKey).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(await t.count('submissions where form_id = ?', [formId])).toBe(before);
  });

  it('without credentials, posts as a browser: an api_key form refuses it, an allowed origin is taken', async () => {
    const anonymous = lfkErrorOf(await thrown(submitWithFiles({ baseUrl }, formId, { data: { name: 'Eve' }, files: { cv: new Blob([PDF]) } })));
    expect(anonymous?.status).toBe(403);

    const session = createLfkClient({ baseUrl, sessionToken: owner.token });
    const open = await session.forms.create.mutate({
      workspace_id: owner.workspaceId,
      name: 'Open',
      schema: [{ name: 'cv', type: 'file', required: true }],
      allowed_origins: ['https://shop.example'],
    });
    // What a browser adds by itself: the page's origin.
    const fromPage: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: 'https://shop.example' } });
    const created = await submitWithFiles({ baseUrl, fetch: fromPage }, open.id, { files: { cv: new File([PDF], 'cv.pdf') } });
    expect(created.form_id).toBe(open.id);
  });
});

describe('downloadFile and openFileLink', () => {
  it("a member's download streams the bytes with name, type and size; a range is a part of it; a key is refused", async () => {
    const created = await submitWithFiles({ baseUrl, apiKey: key }, formId, { data: { name: 'Grace' }, files: { cv: new File([PDF], 'notes/Grace ☃.pdf') } });
    const read = await createLfkClient({ baseUrl, sessionToken: owner.token }).submissions.get.query({ form_id: formId, submission_id: created.id });
    const request = { formId, submissionId: created.id, fileId: read.files[0]!.id };

    const whole = await downloadFile({ baseUrl, sessionToken: owner.token }, request);
    expect({ name: whole.name, contentType: whole.contentType, size: whole.size, range: whole.range }).toEqual({
      name: read.files[0]!.name,
      contentType: 'application/pdf',
      size: PDF.length,
      range: null,
    });
    expect(whole.name).toContain('☃');
    expect(Buffer.from(await new Response(whole.body).arrayBuffer()).equals(PDF)).toBe(true);

    const tail = await downloadFile({ baseUrl, sessionToken: owner.token }, { ...request, range: 'bytes=-6' });
    expect(tail).toMatchObject({ size: PDF.length, range: { start: PDF.length - 6, end: PDF.length - 1 } });
    expect(await new Response(tail.body).text()).toBe('%%EOF\n');

    const outside = lfkErrorOf(await thrown(downloadFile({ baseUrl, sessionToken: owner.token }, { ...request, range: `bytes=${PDF.length}-` })));
    expect(outside).toMatchObject({ code: 'range_not_satisfiable', status: 416 });
    const asKey = lfkErrorOf(await thrown(downloadFile({ baseUrl, sessionToken: key }, request)));
    expect(asKey).toMatchObject({ code: 'session_required', status: 403 });
    const unknown = lfkErrorOf(await thrown(downloadFile({ baseUrl, sessionToken: owner.token }, { ...request, fileId: 'file_nothing' })));
    expect(unknown).toMatchObject({ code: 'file_not_found', status: 404 });
  });

  it('a signed link opens with no credentials; a forged one is file_not_found', async () => {
    const created = await submitWithFiles({ baseUrl, apiKey: key }, formId, { data: { name: 'Linus' }, files: { cv: new File([PDF], 'cv.pdf') } });
    const jsonl = await new Response(await exportSubmissions({ baseUrl, sessionToken: owner.token }, formId, { format: 'jsonl' })).text();
    const line = jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.id === created.id);
    // The server under test names itself http://lfk.test; the same path on its listening address.
    const url = `${baseUrl}${new URL(line.files[0].url).pathname}`;

    const opened = await openFileLink(url);
    expect(opened).toMatchObject({ name: 'cv.pdf', contentType: 'application/pdf', size: PDF.length, range: null });
    expect(Buffer.from(await new Response(opened.body).arrayBuffer()).equals(PDF)).toBe(true);
    const head = await openFileLink(url, { range: 'bytes=0-3' });
    expect(await new Response(head.body).text()).toBe('%PDF');

    const forged = await thrown(openFileLink(url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))));
    expect(lfkErrorOf(forged)).toMatchObject({ code: 'file_not_found', status: 404 });
  });
});
