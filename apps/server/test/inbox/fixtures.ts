/**
 * What the inbox files share: a contact form made as an owner would, submissions posted as a
 * browser and as a server, and the state a user can observe (the rows, their emails and deliveries).
 */
import { type Account, createContactForm, ORIGIN, type Res, submit, type TestServer, useTestServer, VALID } from '@lfk/server/testing';
import { beforeAll, expect } from 'vitest';

export { ORIGIN, VALID };

/** The file's account and its key, made by `useClockedServer` before the file's tests (live bindings, read at use). */
export let owner: Account;
export let key: string;

/** The file's server, on the clock the file moves by hand (`now` reads it), with `owner` and `key` made before its tests. */
export function useClockedServer(now: () => Date): TestServer {
  const t = useTestServer({}, { config: { now } });
  beforeAll(async () => {
    ({ owner, key } = await t.signupWithKey());
  });
  return t;
}

/** A contact form of `owner`'s workspace with `settings` (spam, closing, retention…) set at creation. */
export async function inboxForm(t: TestServer, owner: Account, settings: Record<string, unknown> = {}) {
  return createContactForm(t, owner, settings);
}

/** A browser submission from the form's origin; answers the response. */
export function post(t: TestServer, formId: string, values: Record<string, unknown> = VALID, headers: Record<string, string> = {}): Promise<Res> {
  return submit(t, formId, values, { origin: ORIGIN, headers });
}

/** A submission as stored: what a member would see, and what the database holds beside it. */
export interface StoredSubmission {
  id: string;
  status: string;
  spam_reason: string | null;
  data: Record<string, unknown>;
}

export async function stored(t: TestServer, formId: string): Promise<StoredSubmission[]> {
  const rows = await t.sql<StoredSubmission & { data: unknown }>('select id, status, spam_reason, data from submissions where form_id = ? order by id', [
    formId,
  ]);
  return rows.map((r) => ({ ...r, data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data })) as StoredSubmission[];
}

/** The notification emails and webhook deliveries a submission has, sent or waiting. */
export async function sendsOf(t: TestServer, submissionId: string) {
  return {
    emails: await t.count('outbox_emails where submission_id = ?', [submissionId]),
    deliveries: await t.count('webhook_deliveries where submission_id = ?', [submissionId]),
  };
}

/** Makes the form's notify_email verified at once (the verification link is tested elsewhere). */
export async function verifiedNotifyEmail(t: TestServer, formId: string, address = 'owner-inbox@example.com') {
  await t.sql("update forms set notify_emails = jsonb_build_array(jsonb_build_object('email', ?::text, 'verified', true)) where id = ?", [address, formId]);
}

/** An endpoint whose name never resolves: its deliveries fail and wait for a retry an hour later, pending. */
export async function unreachableWebhook(t: TestServer, owner: Account, formId: string) {
  const res = await t.request('POST', `/v1/forms/${formId}/webhooks`, { token: owner.token, body: { url: 'https://receiver.invalid/hook' } });
  expect(res.status, res.body).toBe(201);
  return res.json.id as string;
}

/** An answer without what differs from one submission to the next, to compare a spam answer with a real one. */
export function shapeOf(res: Res) {
  const { 'x-request-id': _id, date: _date, 'content-length': _length, ...headers } = res.headers;
  const body = res.json ? Object.fromEntries(Object.keys(res.json).map((k) => [k, typeof res.json[k]])) : res.body.replace(/sub_[0-9a-z]{26}/g, 'sub_…');
  return { status: res.status, headers, body };
}
