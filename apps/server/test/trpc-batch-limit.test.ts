/**
 * A tRPC batch holds at most 10 calls. A bigger one is refused whole, before any of its calls
 * runs, with lfk's `batch_too_large` in tRPC's envelope.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, countSubmissions, createContactForm, expectError, ORIGIN, useTestServer, VALID } from '@lfk/server/testing';

const t = useTestServer();
let owner: Account;

beforeAll(async () => {
  owner = await t.signup();
});

/** A POST batch of `calls` anonymous browser submissions to `formId`. */
function submissionBatch(formId: string, calls: number, separator = ',') {
  const paths = Array.from({ length: calls }, () => 'submissions.create').join(separator);
  const body = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { form_id: formId, data: VALID }]));
  return t.request('POST', `/trpc/${paths}?batch=1`, { body, headers: { origin: ORIGIN } });
}

describe('the tRPC batch cap', () => {
  it('an unauthenticated batch of 200 submissions is 400 batch_too_large and runs none of them', async () => {
    const form = await createContactForm(t, owner);
    const res = await submissionBatch(form.id, 200);
    expectError(res, 400, 'batch_too_large');
    expect(res.json.error.data.message).toContain('10');
    expect(await countSubmissions(t, form.id)).toBe(0);
  });

  it('10 calls run; 11 are refused, also when the commas are percent-encoded', async () => {
    const form = await createContactForm(t, owner);
    const ten = await submissionBatch(form.id, 10);
    expect(ten.status, ten.body.slice(0, 300)).toBe(200);
    expect(ten.json.map((answer: { result: { data: { form_id: string } } }) => answer.result.data.form_id)).toEqual(Array(10).fill(form.id));
    expectError(await submissionBatch(form.id, 11), 400, 'batch_too_large');
    expectError(await submissionBatch(form.id, 11, '%2C'), 400, 'batch_too_large');
    expect(await countSubmissions(t, form.id)).toBe(10);
  });

  it('a GET batch of queries has the same cap', async () => {
    const paths = (n: number) => Array.from({ length: n }, () => 'auth.session').join(',');
    const input = (n: number) => encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, null]))));
    const ten = await t.request('GET', `/trpc/${paths(10)}?batch=1&input=${input(10)}`, { token: owner.token });
    expect(ten.status, ten.body.slice(0, 300)).toBe(200);
    expect(ten.json).toHaveLength(10);
    const many = await t.request('GET', `/trpc/${paths(200)}?batch=1&input=${input(200)}`, { token: owner.token });
    expectError(many, 400, 'batch_too_large');
  });
});
