import { describe, expect, it } from 'vitest';
import { useTestServer } from '@lfk/server/testing';

// One submission, read in full by a member: GET /v1/forms/{form_id}/submissions/{submission_id}.

const t = useTestServer();

describe('reading one submission', () => {
  it('answers every value of a submission of that form, and nothing of another form', async () => {
    const { owner, key } = await t.signupWithKey();
    const schema = [{ name: 'message', type: 'textarea', required: true }];
    const form = async (name: string) => (await t.request('POST', '/v1/forms', { token: key, body: { name, schema } })).json.id as string;
    const [a, b] = [await form('A'), await form('B')];
    const message = `line one\nline two ${'x'.repeat(2000)}`;
    const submitted = await t.request('POST', `/v1/forms/${a}/submissions`, { token: key, body: { message } });
    expect(submitted.status).toBe(201);

    const read = await t.request('GET', `/v1/forms/${a}/submissions/${submitted.json.id}`, { token: owner.token });
    expect(read.status, read.body).toBe(200);
    expect(read.json).toEqual({
      id: submitted.json.id,
      form_id: a,
      data: { message },
      files: [],
      source: 'api_key',
      status: 'ok',
      spam_reason: null,
      // Scored by the content filter, and let through: a number, and what (if anything) it noticed.
      spam_score: expect.any(Number),
      spam_reasons: expect.any(Array),
      created_at: submitted.json.created_at,
    });

    for (const [formId, submissionId] of [
      [b, submitted.json.id],
      [a, 'sub_00000000000000000000000000'],
      [a, 'not-an-id'],
      [a, `${submitted.json.id}x`],
    ]) {
      const res = await t.request('GET', `/v1/forms/${formId}/submissions/${submissionId}`, { token: owner.token });
      expect(res.status, `${formId} ${submissionId}`).toBe(404);
      expect(res.json.error.code).toBe('submission_not_found');
    }
  });
});
