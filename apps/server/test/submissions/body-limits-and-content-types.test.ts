/**
 * Submissions end to end: body limits and content types.
 */
import { describe, expect, it } from 'vitest';
import { expectError, ORIGIN } from '@lfk/server/testing';
import { countRows, createForm, expectCreated, postForm, storedRows, submit, useWorld } from './fixtures.ts';

useWorld();

describe('body limits and content types', () => {
  const noteSchema = [{ name: 'msg', type: 'textarea', required: true }];
  /** A JSON body of exactly `bytes` bytes: {"msg":"aaa…"}. */
  const jsonOfSize = (bytes: number) => `{"msg":"${'a'.repeat(bytes - 10)}"}`;

  it('takes a body of 64 KiB and refuses one byte more with 413 payload_too_large', async () => {
    const form = await createForm({ schema: noteSchema });
    const atLimit = jsonOfSize(64 * 1024);
    expect(Buffer.byteLength(atLimit)).toBe(65_536);
    expectCreated(await submit(form.id, undefined, { origin: ORIGIN, raw: atLimit }), form.id);

    const justUnder = jsonOfSize(64 * 1024 - 100);
    expectCreated(await submit(form.id, undefined, { origin: ORIGIN, raw: justUnder }), form.id);

    const over = jsonOfSize(64 * 1024 + 1);
    expectError(await submit(form.id, undefined, { origin: ORIGIN, raw: over }), 413, 'payload_too_large');
    const wayOver = jsonOfSize(200 * 1024);
    expectError(await submit(form.id, undefined, { origin: ORIGIN, raw: wayOver }), 413, 'payload_too_large');
    const formOver = `msg=${'b'.repeat(64 * 1024)}`;
    expectError(await postForm(form.id, formOver), 413, 'payload_too_large');

    const rows = await storedRows(form.id);
    expect(rows.map((r) => (r.data.msg as string).length)).toEqual([65_526, 65_426]);
  });

  it('takes multipart/form-data (files or not) and refuses text/plain with 415', async () => {
    const form = await createForm({ schema: noteSchema });
    const plain = await submit(form.id, undefined, { origin: ORIGIN, raw: 'msg=hello', contentType: 'text/plain' });
    expectError(plain, 415, 'unsupported_media_type');
    expect(await countRows(form.id)).toBe(0);
    const multipart = await submit(form.id, undefined, {
      origin: ORIGIN,
      raw: '--xyz\r\nContent-Disposition: form-data; name="msg"\r\n\r\nhello\r\n--xyz--\r\n',
      contentType: 'multipart/form-data; boundary=xyz',
    });
    expect(multipart.status, multipart.body).toBe(201);
    expect((await storedRows(form.id)).map((r) => r.data)).toEqual([{ msg: 'hello' }]);
  });

  it('refuses a JSON body that is not an object with 400 invalid_request', async () => {
    const form = await createForm({ schema: noteSchema });
    expectError(await submit(form.id, [{ msg: 'hello' }], { origin: ORIGIN }), 400, 'invalid_request');
    expectError(await submit(form.id, 'hello', { origin: ORIGIN }), 400, 'invalid_request');
    expectError(await submit(form.id, undefined, { origin: ORIGIN, raw: '{"msg":' }), 400, 'invalid_json');
    expect(await countRows(form.id)).toBe(0);
  });
});
