/**
 * A submission holds at most 64 KiB of values, whichever door it comes through: the limit belongs
 * to the procedure, so REST, tRPC (single or batched) answer alike.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  countSubmissions,
  createContactForm,
  expectCreated,
  expectError,
  ORIGIN,
  submit,
  submitOverTrpc,
  useTestServer,
} from '@lfk/server/testing';

const KiB = 1024;
/** Values whose JSON, `{"message":"…"}`, is exactly `bytes` long. */
const valuesOfSize = (bytes: number) => ({ message: 'a'.repeat(bytes - '{"message":""}'.length) });

const t = useTestServer();
let owner: Account;
let key: string;

beforeAll(async () => {
  owner = await t.signup();
  key = (await t.createKey(owner.token, owner.workspaceId)).key;
});

/** A form with one optional textarea, `message`. */
const messageForm = () => createContactForm(t, owner, { schema: [{ name: 'message', type: 'textarea' }] });

describe('the 64 KiB submission limit on every transport', () => {
  it('/trpc/submissions.create refuses a 600 KB submission with 413 payload_too_large and stores nothing', async () => {
    const form = await messageForm();
    const big = { message: 'x'.repeat(600_000) };
    expectError(await submitOverTrpc(t, form.id, big, { origin: ORIGIN }), 413, 'payload_too_large');
    expectError(await submitOverTrpc(t, form.id, big, { token: key }), 413, 'payload_too_large');
    expect(await countSubmissions(t, form.id)).toBe(0);
  });

  it('64 KiB of values is taken through both doors; one byte more is refused by both', async () => {
    const form = await messageForm();
    expectCreated(await submit(t, form.id, valuesOfSize(64 * KiB), { origin: ORIGIN }), form.id);
    const overTrpc = await submitOverTrpc(t, form.id, valuesOfSize(64 * KiB), { origin: ORIGIN });
    expect(overTrpc.status, overTrpc.body.slice(0, 300)).toBe(200);
    expect(overTrpc.json.result.data.form_id).toBe(form.id);

    expectError(await submit(t, form.id, valuesOfSize(64 * KiB + 1), { origin: ORIGIN }), 413, 'payload_too_large');
    expectError(await submitOverTrpc(t, form.id, valuesOfSize(64 * KiB + 1), { origin: ORIGIN }), 413, 'payload_too_large');
    expect(await countSubmissions(t, form.id)).toBe(2);
  });

  it('in a tRPC batch, the oversized call is refused on its own and the others run', async () => {
    const form = await messageForm();
    const res = await t.request('POST', '/trpc/submissions.create,submissions.create?batch=1', {
      body: {
        0: { form_id: form.id, data: valuesOfSize(200 * KiB) },
        1: { form_id: form.id, data: { message: 'small' } },
      },
      headers: { origin: ORIGIN },
    });
    expect(Array.isArray(res.json), res.body.slice(0, 300)).toBe(true);
    expect(res.json[0].error.data.code).toBe('payload_too_large');
    expect(res.json[0].error.data.httpStatus).toBe(413);
    expect(res.json[1].result.data.form_id).toBe(form.id);
    expect(await countSubmissions(t, form.id)).toBe(1);
  });
});
