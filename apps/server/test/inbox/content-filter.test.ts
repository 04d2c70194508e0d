/**
 * The content filter (issue 54, DESIGN §19): every submission is scored before it is stored, with
 * its reasons; above its form's threshold it goes to spam as any spam does (no email, no webhook);
 * a form may turn the filter off or move its threshold; members' marks teach their workspace's
 * filter, and only theirs.
 */
import { type Account, createContactForm, expectError, startTestServer, submit, type TestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendsOf, verifiedNotifyEmail } from './fixtures.ts';

let t: TestServer;
let owner: Account;
let key: string;

beforeAll(async () => {
  t = await startTestServer({ SMTP_URL: 'smtp://127.0.0.1:9' }, { outbox: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 } });
  ({ owner, key } = await t.signupWithKey());
});
afterAll(async () => {
  await t?.close();
});

const QUESTION = { name: 'Ada', email: 'ada@example.org', message: 'Hello, is the Thursday workshop still open? I would like to bring a colleague.' };
const PITCH = {
  name: 'BEST OFFER',
  email: 'promo@mailinator.com',
  message: 'CLICK HERE for FREE money!!! Limited time offer: https://bit.ly/abc http://pills.example/buy http://win.example/prize — act now, guaranteed!!!',
};
/** Polite outreach the shipped model lets through: what a workspace teaches it by marking. */
const outreach = (n: number) => ({
  name: 'Tom',
  email: `tom${n}@outreach${n}.example`,
  message: `Hello, I had a look at your site and we could help with SEO, backlinks and crypto payments. Happy to talk on Thursday. Regards, Tom (${n})`,
});

async function submission(formId: string, id: string, session = owner) {
  const res = await t.request('GET', `/v1/forms/${formId}/submissions/${id}`, { token: session.token });
  expect(res.status, res.body).toBe(200);
  return res.json;
}

describe('the content filter', () => {
  it('scores every submission with its reasons, and files what scores above the threshold as spam, sending nothing', async () => {
    const form = await createContactForm(t, owner);
    expect(form.spam_filter).toEqual({ enabled: true, threshold: expect.any(Number) });
    await verifiedNotifyEmail(t, form.id);
    const ham = await submit(t, form.id, QUESTION, { token: key });
    const spam = await submit(t, form.id, PITCH, { token: key });
    expect([ham.status, spam.status]).toEqual([201, 201]);

    const kept = await submission(form.id, ham.json.id);
    expect(kept).toMatchObject({ status: 'ok', spam_reason: null });
    expect(kept.spam_score).toBeLessThan(form.spam_filter.threshold);

    const caught = await submission(form.id, spam.json.id);
    expect(caught).toMatchObject({ status: 'spam', spam_reason: 'content' });
    expect(caught.spam_score).toBeGreaterThan(form.spam_filter.threshold);
    expect(caught.spam_reasons.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(['many_links', 'link_shortener', 'disposable_sender']));
    expect(caught.spam_reasons.find((r: { code: string }) => r.code === 'link_shortener').message).toContain('bit.ly');
    expect(await sendsOf(t, spam.json.id)).toEqual({ emails: 0, deliveries: 0 });
    expect((await sendsOf(t, ham.json.id)).emails).toBe(1);

    const spamList = await t.request('GET', `/v1/forms/${form.id}/submissions?status=spam`, { token: owner.token });
    expect(spamList.json.data.map((s: { id: string }) => s.id)).toEqual([spam.json.id]);
  });

  it('a form that turns it off keeps what it would have caught, unscored; a lower threshold catches more', async () => {
    const off = await createContactForm(t, owner, { spam_filter: { enabled: false } });
    expect(off.spam_filter.enabled).toBe(false);
    const sent = await submit(t, off.id, PITCH, { token: key });
    expect(await submission(off.id, sent.json.id)).toMatchObject({ status: 'ok', spam_reason: null, spam_score: null, spam_reasons: [] });

    const strict = await createContactForm(t, owner, { spam_filter: { threshold: 0.01 } });
    expect(strict.spam_filter).toEqual({ enabled: true, threshold: 0.01 });
    const question = await submit(t, strict.id, QUESTION, { token: key });
    const scored = await submission(strict.id, question.json.id);
    expect(scored.spam_score).toBeGreaterThan(0.01);
    expect(scored).toMatchObject({ status: 'spam', spam_reason: 'content' });

    // Back to the shipped threshold, and the setting answers it.
    const reset = await t.request('PATCH', `/v1/forms/${strict.id}`, { token: key, body: { spam_filter: { threshold: null } } });
    expect(reset.status, reset.body).toBe(200);
    expect(reset.json.spam_filter).toEqual({ enabled: true, threshold: off.spam_filter.threshold });
  });

  it('a message sprayed at many forms says so, and scores higher, without naming any form', async () => {
    const other = await t.signupWithKey();
    const forms = [await createContactForm(t, owner), await createContactForm(t, other.owner), await createContactForm(t, owner)];
    const keys = [key, other.key, key];
    const sprayed = { ...QUESTION, message: 'Hello, is the Thursday workshop still open? I would like to bring a colleague along, thanks.' };
    const scored = [];
    for (const [i, form] of forms.entries()) {
      const sent = await submit(t, form.id, sprayed, { token: keys[i]! });
      scored.push(await submission(form.id, sent.json.id, i === 1 ? other.owner : owner));
    }
    const codes = (s: { spam_reasons: { code: string }[] }) => s.spam_reasons.map((r) => r.code);
    expect(codes(scored[0])).not.toContain('seen_across_forms');
    expect(codes(scored[1])).not.toContain('seen_across_forms');
    expect(scored[2].spam_reasons.find((r: { code: string }) => r.code === 'seen_across_forms').message).toBe(
      'The same message came to 3 forms on this server in the last day.',
    );
    expect(scored[2].spam_score).toBeGreaterThan(scored[0].spam_score);
    // The same form again is no new form.
    const again = await submit(t, forms[2]!.id, sprayed, { token: key });
    expect((await submission(forms[2]!.id, again.json.id)).spam_reasons.find((r: { code: string }) => r.code === 'seen_across_forms').message).toContain(
      'came to 3 forms',
    );
  });

  it('refuses a threshold out of range, naming the field', async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'x', schema: [{ name: 'message', type: 'textarea' }], spam_filter: { threshold: 1.5 } },
    });
    expectError(res, 400, 'invalid_request', { paths: ['spam_filter.threshold'] });
  });
});

describe("a workspace's marks", () => {
  it('teach its own filter: its kind of spam is caught after members mark it, and another workspace still lets it through', async () => {
    const form = await createContactForm(t, owner);
    const first = await submit(t, form.id, outreach(0), { token: key });
    const before = await submission(form.id, first.json.id);
    expect(before.status).toBe('ok');

    for (let n = 1; n <= 8; n++) {
      const sent = await submit(t, form.id, outreach(n), { token: key });
      const marked = await t.request('POST', `/v1/forms/${form.id}/submissions/${sent.json.id}/spam`, { token: owner.token });
      expect(marked.status, marked.body).toBe(200);
    }
    const after = await submit(t, form.id, outreach(100), { token: key });
    const caught = await submission(form.id, after.json.id);
    expect(caught).toMatchObject({ status: 'spam', spam_reason: 'content' });
    expect(caught.spam_score).toBeGreaterThan(before.spam_score);
    expect(caught.spam_reasons.map((r: { code: string }) => r.code)).toContain('marked_words');

    const other = await t.signupWithKey();
    const theirs = await createContactForm(t, other.owner);
    const sent = await submit(t, theirs.id, outreach(100), { token: other.key });
    const judged = await submission(theirs.id, sent.json.id, other.owner);
    expect(judged).toMatchObject({ status: 'ok', spam_reason: null });
  });

  it('"not spam" releases a caught submission and teaches the filter to keep its kind', async () => {
    const form = await createContactForm(t, owner, { spam_filter: { threshold: 0.01 } });
    const sent = await submit(t, form.id, QUESTION, { token: key });
    const caught = await submission(form.id, sent.json.id);
    expect(caught).toMatchObject({ status: 'spam', spam_reason: 'content' });
    const released = await t.request('POST', `/v1/forms/${form.id}/submissions/${sent.json.id}/not-spam`, { token: owner.token });
    expect(released.json).toMatchObject({ status: 'ok', spam_reason: null });
    const again = await submit(t, form.id, { ...QUESTION, name: 'Ada L.' }, { token: key });
    expect((await submission(form.id, again.json.id)).spam_score).toBeLessThan(caught.spam_score);
  });

  it('teach at most LFK_SPAM_MARKS_PER_HOUR an hour: past it a mark still marks, and teaches nothing', async () => {
    const limited = await startTestServer({ LFK_SPAM_MARKS_PER_HOUR: '2' });
    try {
      const { owner: someone, key: theirKey } = await limited.signupWithKey();
      const form = await createContactForm(limited, someone);
      const taught = () => limited.count('spam_learnings where workspace_id = ? and marks = ?', [someone.workspaceId, 2]);
      // Unlike each other, so each is kept on arrival (a mark on what is spam already changes nothing).
      const sent3 = [
        { name: 'Ann', email: 'ann@example.org', message: 'Is parking available near the venue on Saturday?' },
        { name: 'Bo', email: 'bo@example.net', message: 'My invoice number is missing from the receipt.' },
        { name: 'Cy', email: 'cy@example.com', message: 'Do you deliver to Norway?' },
      ];
      for (const values of sent3) {
        const sent = await submit(limited, form.id, values, { token: theirKey });
        expect((await limited.request('GET', `/v1/forms/${form.id}/submissions/${sent.json.id}`, { token: someone.token })).json.status).toBe('ok');
        const marked = await limited.request('POST', `/v1/forms/${form.id}/submissions/${sent.json.id}/spam`, { token: someone.token });
        expect(marked.json).toMatchObject({ status: 'spam', spam_reason: 'marked' });
      }
      expect(await taught()).toBe(1);
      expect(await limited.count('submissions where form_id = ? and status = ?', [form.id, 'spam'])).toBe(3);
    } finally {
      await limited.close();
    }
  });
});
