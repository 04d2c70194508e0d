/**
 * Files sent with a submission (`multipart/form-data` on the submission route): stored with it or
 * not at all, checked by their bytes, downloaded by members as attachments (ranges too), handed out
 * by signed links that die with the submission, and gone from storage when it is deleted.
 */
import { sweepObjects } from '@lfk/api';
import {
  type Account,
  createForm,
  multipartBody,
  type Part,
  rawExchange,
  storedObjects,
  submitMultipart,
  type TestServer,
  until,
  useTestServer,
} from '@lfk/server/testing';
import { once } from 'node:events';
import { connect } from 'node:net';
import { readdir } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n'), Buffer.alloc(2048, 0x20), Buffer.from('\n%%EOF\n')]);
const HTML_AS_PDF = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

const post = (t: TestServer, formId: string, parts: Part[], headers: Record<string, string> = {}) => submitMultipart(t, formId, parts, { headers });

const spoolFiles = async (t: TestServer) => (await readdir(t.server.services.files.settings.spoolDir)).filter((name) => name.endsWith('.part'));

describe('files sent with a submission', () => {
  const t = useTestServer();
  let owner: Account;
  let key: string;
  let formId: string;
  let port: number | undefined;
  /** The server on a real port (once), for what only a real socket shows: a cut connection, an early answer. */
  const listening = async () => (port ??= Number(new URL(await t.server.listen()).port));

  beforeAll(async () => {
    ({ owner, key } = await t.signupWithKey());
    const form = await createForm(t, key, {
      name: 'Applications',
      schema: [
        { name: 'name', type: 'text', required: true },
        { name: 'cv', type: 'file', required: true, accept: ['application/pdf'], max_size: 64 * 1024 },
        { name: 'photos', type: 'file', multiple: true, max_files: 2, accept: ['image/*'] },
      ],
    });
    formId = form.id;
  });

  it('takes a file: stored with the submission, described by its bytes, downloaded by a member as an attachment, ranges too', async () => {
    const before = await storedObjects(t);
    const res = await post(
      t,
      formId,
      [
        { name: 'name', value: 'Ada' },
        { name: 'cv', file: PDF, filename: '../../etc/Ada\u0000 CV.pdf', type: 'text/plain' },
      ],
      { authorization: `Bearer ${key}` },
    );
    expect(res.status, res.body).toBe(201);
    const submissionId = res.json.id as string;

    const read = await t.request('GET', `/v1/forms/${formId}/submissions/${submissionId}`, { token: owner.token });
    expect(read.status).toBe(200);
    const [file] = read.json.files;
    expect(read.json.files).toHaveLength(1);
    expect(file).toMatchObject({ field: 'cv', name: 'Ada CV.pdf', size: PDF.length, content_type: 'application/pdf', status: 'stored', malware: null });
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(read.json.data).toEqual({ name: 'Ada', cv: [file.id] });
    expect(await storedObjects(t)).toBe(before + 1);
    expect(await spoolFiles(t)).toEqual([]);

    const url = `/v1/forms/${formId}/submissions/${submissionId}/files/${file.id}`;
    const download = await t.request('GET', url, { token: owner.token });
    expect(download.status).toBe(200);
    expect(Buffer.from(download.body, 'latin1').length).toBe(PDF.length);
    expect(download.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'accept-ranges': 'bytes',
    });
    expect(download.headers['content-disposition']).toBe(`attachment; filename="Ada CV.pdf"; filename*=UTF-8''Ada%20CV.pdf`);

    const head = await t.request('GET', url, { token: owner.token, headers: { range: 'bytes=0-3' } });
    expect(head.status).toBe(206);
    expect(head.body).toBe('%PDF');
    expect(head.headers['content-range']).toBe(`bytes 0-3/${PDF.length}`);
    const tail = await t.request('GET', url, { token: owner.token, headers: { range: 'bytes=-6' } });
    expect(tail.status).toBe(206);
    expect(tail.body).toBe('%%EOF\n');
    const outside = await t.request('GET', url, { token: owner.token, headers: { range: `bytes=${PDF.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.json.error.code).toBe('range_not_satisfiable');
    expect(outside.headers['content-range']).toBe(`bytes */${PDF.length}`);

    // The bytes are REST's: over /trpc the procedure is refused before it opens the file.
    const input = encodeURIComponent(JSON.stringify({ form_id: formId, submission_id: submissionId, file_id: file.id }));
    const overTrpc = await t.request('GET', `/trpc/files.download?input=${input}`, { token: owner.token });
    expect(overTrpc.status).toBe(415);
    expect(overTrpc.json.error.message).toContain('/v1/forms/{form_id}/submissions/{submission_id}/files/{file_id}');

    // A key cannot read submissions, so it cannot read their files.
    const withKey = await t.request('GET', url, { token: key });
    expect(withKey.status).toBe(403);
    expect(withKey.json.error.code).toBe('session_required');
  });

  it('refuses what its fields do not take, stores nothing, and leaves no object or spool file behind', async () => {
    const submissions = await t.count('submissions where form_id = ?', [formId]);
    const objects = await storedObjects(t);
    const auth = { authorization: `Bearer ${key}` };
    const cases: [Part[], number, string, string][] = [
      [
        [
          { name: 'name', value: 'Ada' },
          { name: 'cv', file: HTML_AS_PDF, filename: 'cv.pdf', type: 'application/pdf' },
        ],
        415,
        'file_type_not_accepted',
        'cv',
      ],
      [
        [
          { name: 'name', value: 'Ada' },
          { name: 'cv', file: Buffer.concat([PDF, Buffer.alloc(64 * 1024)]), filename: 'big.pdf' },
        ],
        413,
        'file_too_large',
        'cv',
      ],
      [[{ name: 'name', value: 'Ada' }], 422, 'invalid_submission', 'cv'],
      [
        [
          { name: 'name', value: 'Ada' },
          { name: 'cv', file: Buffer.alloc(0), filename: 'empty.pdf' },
        ],
        422,
        'invalid_submission',
        'cv',
      ],
      [
        [
          { name: 'name', value: 'Ada' },
          { name: 'cv', file: PDF, filename: 'a.pdf' },
          { name: 'cv', file: PDF, filename: 'b.pdf' },
        ],
        422,
        'invalid_submission',
        'cv',
      ],
      [
        [
          { name: 'name', file: PDF, filename: 'name.pdf' },
          { name: 'cv', file: PDF, filename: 'a.pdf' },
        ],
        422,
        'invalid_submission',
        'name',
      ],
      [[{ name: 'cv', file: PDF, filename: 'a.pdf' }], 422, 'validation_failed', 'name'],
    ];
    for (const [parts, status, code, path] of cases) {
      const res = await post(t, formId, parts, auth);
      expect(res.status, `${code}: ${res.body}`).toBe(status);
      expect(res.json.error.code).toBe(code);
      expect(res.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await t.count('submissions where form_id = ?', [formId])).toBe(submissions);
    expect(await storedObjects(t)).toBe(objects);
    expect(await spoolFiles(t)).toEqual([]);
    expect(await t.count('object_deletions')).toBe(0);
  });

  it('answers a body it cannot read with 400, and one with too many parts with 413', async () => {
    const noBoundary = await t.request('POST', `/v1/forms/${formId}/submissions`, {
      raw: 'whatever',
      headers: { 'content-type': 'multipart/form-data', authorization: `Bearer ${key}` },
    });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.json.error.code).toBe('invalid_request');
    const { body, type } = await multipartBody([
      { name: 'name', value: 'Ada' },
      { name: 'cv', file: PDF, filename: 'a.pdf' },
    ]);
    const cut = await t.request('POST', `/v1/forms/${formId}/submissions`, {
      raw: body.subarray(0, body.length - 200),
      headers: { 'content-type': type, authorization: `Bearer ${key}` },
    });
    expect(cut.status).toBe(400);
    const parts = Array.from({ length: 1000 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
    const many = await post(t, formId, parts, { authorization: `Bearer ${key}` });
    expect(many.status).toBe(413);
    expect(many.json.error.code).toBe('payload_too_large');
    expect(await spoolFiles(t)).toEqual([]);
  });

  it('hands files out by signed links that need no session, and that die with the submission; its objects leave storage', async () => {
    const res = await post(
      t,
      formId,
      [
        { name: 'name', value: 'Grace' },
        { name: 'cv', file: PDF, filename: 'cv.pdf' },
      ],
      { authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(201);
    const exported = await t.request('GET', `/v1/forms/${formId}/submissions/export?format=jsonl`, { token: owner.token });
    const line = exported.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.id === res.json.id);
    const link = new URL(line.files[0].url);
    expect(link.origin).toBe('http://lfk.test');
    const opened = await t.request('GET', link.pathname);
    expect(opened.status).toBe(200);
    expect(opened.headers['content-disposition']).toMatch(/^attachment; filename="cv.pdf"/);
    expect(opened.body.startsWith('%PDF')).toBe(true);
    // The token is not written to the log.
    expect(t.logs.join('\n')).not.toContain(link.pathname.split('/').pop());

    const tampered = link.pathname.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const forged = await t.request('GET', tampered);
    expect(forged.status).toBe(404);
    expect(forged.json.error.code).toBe('file_not_found');

    const objects = await storedObjects(t);
    const deleted = await t.request('POST', `/v1/forms/${formId}/submissions/delete`, { token: owner.token, body: { ids: [res.json.id] } });
    expect(deleted.status, deleted.body).toBe(200);
    // The audit log says how many files went and their size, never what they held.
    const audit = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    const event = audit.json.data.find((e: { action: string }) => e.action === 'submissions.deleted');
    expect(event.data).toEqual({ deleted: 1, ids: 1, files: 1, file_bytes: PDF.length });
    const gone = await t.request('GET', link.pathname);
    expect(gone.status).toBe(404);
    expect(gone.body).toBe(forged.body.replace(forged.json.error.request_id, gone.json.error.request_id));
    // The sweep the server runs on its own may have been first: either way, the object is gone after one.
    await sweepObjects(t.server.db, t.server.services.files.storage, new Date());
    expect(await storedObjects(t)).toBe(objects - 1);
  });

  it('stores a retried upload once (Idempotency-Key), and deletes at once the files of a write refused after they were stored (a full form)', async () => {
    const full = await createForm(t, key, { name: 'One only', schema: [{ name: 'doc', type: 'file', required: true }], max_submissions: 1 });
    const objects = await storedObjects(t);
    const send = (idempotencyKey: string) =>
      post(t, full.id, [{ name: 'doc', file: PDF, filename: 'a.pdf' }], { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey });
    const first = await send('retry-1');
    expect(first.status, first.body).toBe(201);
    const again = await send('retry-1');
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await storedObjects(t)).toBe(objects + 1);

    // The form is full only once the transaction counts it, after the files were stored.
    const refused = await send('retry-2');
    expect(refused.status, refused.body).toBe(403);
    expect(refused.json.error.code).toBe('form_closed');
    expect(await storedObjects(t)).toBe(objects + 1);
    expect(await t.count('object_deletions')).toBe(0);
    expect(await spoolFiles(t)).toEqual([]);
  });

  it('keeps a hostile file name for display only: no path, no NUL, at most 255 characters', async () => {
    const name = `../../${'a'.repeat(10_000)}\u0000.pdf`;
    const res = await post(
      t,
      formId,
      [
        { name: 'name', value: 'Ada' },
        { name: 'cv', file: PDF, filename: name },
      ],
      { authorization: `Bearer ${key}` },
    );
    expect(res.status, res.body).toBe(201);
    const [file] = (await t.request('GET', `/v1/forms/${formId}/submissions/${res.json.id}`, { token: owner.token })).json.files;
    expect(file.name).toBe(`${'a'.repeat(251)}.pdf`);
  });

  it(
    'never drops a file part and answers success: a part busboy would skip (a line break in a name, no form-data disposition) refuses the body ' + 'with 400',
    async () => {
      // Written by hand: FormData escapes line breaks in names (%0D%0A), as browsers do; a hand-made client need not.
      const form = await createForm(t, key, {
        name: 'Optional file',
        schema: [
          { name: 'note', type: 'text' },
          { name: 'doc', type: 'file' },
        ],
      });
      const rawBody = (disposition: string | null) => {
        const boundary = 'lfkparts';
        const head = disposition === null ? '' : `Content-Disposition: ${disposition}\r\n`;
        return {
          type: `multipart/form-data; boundary=${boundary}`,
          body: Buffer.concat([
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`),
            Buffer.from(`--${boundary}\r\n${head}Content-Type: application/pdf\r\n\r\n`),
            PDF,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]),
        };
      };
      // Busboy's header parser gives up at a line with a bare CR or LF, so neither the field nor the file name can be read.
      const dispositions = [
        'form-data; name="doc"; filename="cv\n.pdf"',
        'form-data; name="doc"; filename="cv\r.pdf"',
        'form-data; name="do\nc"; filename="cv.pdf"',
        'attachment; name="doc"; filename="cv.pdf"',
        null,
      ];
      for (const disposition of dispositions) {
        const { body, type } = rawBody(disposition);
        const res = await t.request('POST', `/v1/forms/${form.id}/submissions`, {
          raw: body,
          headers: { 'content-type': type, authorization: `Bearer ${key}` },
        });
        expect(res.status, `${JSON.stringify(disposition)}: ${res.body}`).toBe(400);
        expect(res.json.error.code).toBe('invalid_request');
        expect(res.json.error.message).toContain('line break (CR or LF) inside a name or file name');
      }
      expect(await t.count('submissions where form_id = ?', [form.id])).toBe(0);
      expect(await spoolFiles(t)).toEqual([]);

      // Nor is anything else dropped: a name of nothing but characters lfk removes is kept as "file"; a
      // part with bytes and no file name is a file when sent as bytes, else a value (refused in a file field).
      const kept = await post(t, form.id, [{ name: 'doc', file: PDF, filename: '\u202e\u0007', type: 'application/pdf' }], { authorization: `Bearer ${key}` });
      const unnamed = await post(t, form.id, [{ name: 'doc', file: PDF, filename: '', type: 'application/octet-stream' }], { authorization: `Bearer ${key}` });
      for (const res of [kept, unnamed]) {
        expect(res.status, res.body).toBe(201);
        const read = await t.request('GET', `/v1/forms/${form.id}/submissions/${res.json.id}`, { token: owner.token });
        expect(read.json.files).toEqual([expect.objectContaining({ field: 'doc', name: 'file', size: PDF.length })]);
      }
      const asValue = await post(t, form.id, [{ name: 'doc', file: PDF, filename: '', type: 'application/pdf' }], { authorization: `Bearer ${key}` });
      expect(asValue.status).toBe(422);
      expect(asValue.json.error).toMatchObject({
        code: 'invalid_submission',
        details: [{ path: 'doc', message: 'Must be a file, sent in a multipart/form-data request.' }],
      });
    },
  );

  it('finds markup anywhere in a text file (the WHATWG markers, other tags, after the first bytes, UTF-16, XHTML): never stored as text/plain', async () => {
    const form = await createForm(t, key, {
      name: 'Notes',
      schema: [
        { name: 'notes', type: 'file', accept: ['text/plain'] },
        { name: 'any', type: 'file' },
      ],
    });
    const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const utf16be = (text: string) => Buffer.from([0xfe, 0xff, ...Buffer.from(text, 'utf16le').swap16()]);
    const markup: [string, Buffer, string][] = [
      ...[
        '<img/src=x onerror=alert(1)>',
        '<div>hi</div>',
        '<p>hi',
        '<title>t</title>',
        '<!-- c -->',
        '<h1>t</h1>',
        '<table>',
        'a<br>b',
        '<font color=red>',
        '<a href=x>x</a>',
        '<details open>',
        '<video src=x>',
        '<B>bold</B>',
        '  \n<STYLE>*{}</STYLE>',
        '<!DOCTYPE HTML>',
      ].map((text): [string, Buffer, string] => [text, Buffer.from(`Some notes.\n${text}\n`), 'text/html']),
      ['after the first 4,100 bytes', Buffer.from(`${'plain words '.repeat(1000)}<script>alert(1)</script>`), 'text/html'],
      ['across two chunks far in', Buffer.from(`${'x'.repeat(70_000 - 3)}<scr${'i'}pt>alert(1)</script>`), 'text/html'],
      ['UTF-16 LE', utf16le('<html><body>hi</body></html>'), 'text/html'],
      ['UTF-16 BE', utf16be('notes <iframe src=x>'), 'text/html'],
      ['XHTML', Buffer.from('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'), 'application/xhtml+xml'],
    ];
    for (const [label, bytes, type] of markup) {
      const refused = await post(t, form.id, [{ name: 'notes', file: bytes, filename: 'notes.txt', type: 'text/plain' }], { authorization: `Bearer ${key}` });
      expect(refused.status, `${label}: ${refused.body}`).toBe(415);
      expect(refused.json.error).toMatchObject({
        code: 'file_type_not_accepted',
        details: [{ path: 'notes', message: expect.stringContaining(`Is ${type},`) }],
      });
      // Where any type is taken, it is stored as what it is.
      const stored = await post(t, form.id, [{ name: 'any', file: bytes, filename: 'notes.txt', type: 'text/plain' }], { authorization: `Bearer ${key}` });
      expect(stored.status, `${label}: ${stored.body}`).toBe(201);
      const read = await t.request('GET', `/v1/forms/${form.id}/submissions/${stored.json.id}`, { token: owner.token });
      expect(read.json.files[0].content_type, label).toBe(type);
    }
    // Text that only looks like it: comparisons, e-mail addresses in brackets, UTF-16 without markup.
    for (const bytes of [Buffer.from('if x < y and y > z then x < z\n<ada@example.com>\n<3 <- love, <br0ken\n'), utf16le('plain notes, in UTF-16')]) {
      const taken = await post(t, form.id, [{ name: 'notes', file: bytes, filename: 'notes.txt', type: 'text/plain' }], { authorization: `Bearer ${key}` });
      expect(taken.status, taken.body).toBe(201);
    }
    expect(await spoolFiles(t)).toEqual([]);
  });

  it('forgets an upload whose connection is cut halfway: no submission, no object, no spool file', async () => {
    const submissions = await t.count('submissions where form_id = ?', [formId]);
    const objects = await storedObjects(t);
    const port = await listening();
    const { body, type } = await multipartBody([
      { name: 'name', value: 'Ada' },
      { name: 'cv', file: Buffer.concat([PDF, Buffer.alloc(40_000, 0x20)]), filename: 'cv.pdf' },
    ]);
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      `POST /v1/forms/${formId}/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, body.length / 2));
    // The spool file exists while the upload is in flight, and is gone once the connection is.
    await until('the upload to be spooled', async () => (await spoolFiles(t)).length > 0);
    socket.destroy();
    await until('the spool file to be removed', async () => (await spoolFiles(t)).length === 0);
    expect(await t.count('submissions where form_id = ?', [formId])).toBe(submissions);
    expect(await storedObjects(t)).toBe(objects);
  });

  it('answers a refused upload at once, reads no more than its limit of the rest, then cuts the connection', async () => {
    // A field whose size limit (10 MiB) is far past the first bytes, which alone decide the type.
    const pdfOnly = await createForm(t, key, { name: 'PDF only', schema: [{ name: 'cv', type: 'file', accept: ['application/pdf'] }] });
    const port = await listening();
    const boundary = 'lfkboundary';
    const announced = 200 * 1024 * 1024;
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    const closed = new Promise<void>((resolve) => {
      socket.on('close', () => resolve());
      socket.on('error', () => {});
    });
    socket.write(
      `POST /v1/forms/${pdfOnly.id}/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${announced}\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="cv"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
        `<!doctype html><html>${' '.repeat(8192)}`,
    );
    // Sent as a client that writes its whole body before it reads would: until the server stops it.
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    while (!socket.destroyed && sent < announced) {
      sent += chunk.length;
      if (!socket.write(chunk)) await Promise.race([once(socket, 'drain').catch(() => {}), closed]);
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 415 /);
    expect(answer).toContain('"file_type_not_accepted"');
    // Cut near the submission limit (25 MiB and a little), not after the 200 MiB announced.
    expect(sent).toBeLessThan(announced / 2);
    expect(await spoolFiles(t)).toEqual([]);
  });

  it(
    'lets a client that goes on sending after an early refusal read it: Connection: close or not, its last bytes after the answer (413, 415, ' + '403)',
    async () => {
      const port = await listening();
      const pdfOnly = await createForm(t, key, { name: 'PDF, small', schema: [{ name: 'cv', type: 'file', accept: ['application/pdf'], max_size: 8 * 1024 }] });
      const elsewhere = await createForm(t, key, {
        name: 'Browsers from elsewhere',
        schema: [{ name: 'cv', type: 'file' }],
        allowed_origins: ['https://shop.example'],
      });
      const boundary = 'lfkearly';
      const rest = Buffer.alloc(512 * 1024, 0x20);
      const refusals: [string, string, string, number, string][] = [
        [pdfOnly.id, `Authorization: Bearer ${key}\r\n`, `<!doctype html><html>${' '.repeat(5000)}`, 415, 'file_type_not_accepted'],
        [pdfOnly.id, `Authorization: Bearer ${key}\r\n`, `%PDF-1.7\n${' '.repeat(16 * 1024)}`, 413, 'file_too_large'],
        [elsewhere.id, 'Origin: https://evil.example\r\n', '%PDF-1.7\n', 403, 'origin_not_allowed'],
      ];
      for (const connection of ['close', 'keep-alive']) {
        for (const [formId, credential, head, status, code] of refusals) {
          const start = `--${boundary}\r\nContent-Disposition: form-data; name="cv"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n${head}`;
          const end = `\r\n--${boundary}--\r\n`;
          const length = Buffer.byteLength(start) + rest.length + end.length;
          const failures: Error[] = [];
          const answer = await rawExchange(port, async (socket) => {
            socket.on('error', (error) => failures.push(error));
            socket.write(
              `POST /v1/forms/${formId}/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n${credential}Connection: ${connection}\r\n` +
                `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n${start}`,
            );
            // The answer comes before the body is whole; the rest is sent after it, as a client that writes its body before it reads.
            await once(socket, 'data');
            for (let at = 0; at < rest.length && !socket.destroyed; at += 64 * 1024) {
              if (!socket.write(rest.subarray(at, at + 64 * 1024))) await once(socket, 'drain').catch(() => {});
            }
            socket.end(end);
          });
          expect(
            failures.map((e) => e.message),
            `${connection}, ${code}`,
          ).toEqual([]);
          expect(answer.status, `${connection}: ${answer.body}`).toBe(status);
          expect(answer.json.error.code).toBe(code);
          expect(answer.headers.connection).toBe('close');
        }
      }
      expect(await spoolFiles(t)).toEqual([]);
    },
  );

  it("answers a browser's refused upload with a page naming the field as the person saw it", async () => {
    const form = await createForm(t, key, {
      name: 'Jobs',
      schema: [{ name: 'cv', type: 'file', label: 'Your CV', required: true, accept: ['application/pdf'] }],
      allowed_origins: ['https://shop.example'],
    });
    const page = await post(t, form.id, [{ name: 'cv', file: HTML_AS_PDF, filename: 'cv.pdf', type: 'application/pdf' }], {
      origin: 'https://shop.example',
      accept: 'text/html',
    });
    expect(page.status).toBe(415);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('A file cannot be sent');
    expect(page.body).toContain('Your CV: Is text/html, which this field does not accept');
    const missing = await post(t, form.id, [{ name: 'other', value: 'x' }], { origin: 'https://shop.example', accept: 'text/html' });
    expect(missing.status).toBe(422);
    expect(missing.body).toContain('Your CV: Is required.');
  });

  it('takes a multipart post without files from a browser, as an urlencoded one', async () => {
    const plain = await createForm(t, key, {
      name: 'Contact',
      schema: [{ name: 'email', type: 'email', required: true }],
      allowed_origins: ['https://shop.example'],
    });
    const res = await post(t, plain.id, [{ name: 'email', value: 'ada@example.com' }], { origin: 'https://shop.example', accept: 'text/html' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(await t.count('submissions where form_id = ?', [plain.id])).toBe(1);
  });
});
