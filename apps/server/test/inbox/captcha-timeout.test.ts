/**
 * A captcha provider that never answers is bounded by LFK_CAPTCHA_TIMEOUT: the submission is kept,
 * as spam (`captcha_unverified`), once the timeout has passed. Slow: it waits out that second.
 */
import { CAPTCHA_SECRET, CAPTCHA_SITE_KEY, type CaptchaProvider, startCaptchaProvider, startTestServer, type TestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inboxForm, post, stored, VALID } from './fixtures.ts';

let provider: CaptchaProvider;
let t: TestServer;
beforeAll(async () => {
  provider = await startCaptchaProvider();
  t = await startTestServer({ ...provider.env, LFK_CAPTCHA_TIMEOUT: '1' });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

it('a provider that hangs: the submission is answered 201 after the timeout and kept as spam', async () => {
  const owner = await t.signup();
  const form = await inboxForm(t, owner, { spam: { captcha: { provider: 'turnstile', site_key: CAPTCHA_SITE_KEY, secret: CAPTCHA_SECRET } } });
  const started = Date.now();
  const res = await post(t, form.id, { ...VALID, 'cf-turnstile-response': 'hang-1' });
  expect(res.status, res.body).toBe(201);
  // Not before the timeout: the provider was waited for, then given up on.
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(await stored(t, form.id)).toEqual([{ id: res.json.id, status: 'spam', spam_reason: 'captcha_unverified', data: { ...VALID } }]);
  expect(provider.requests.at(-1)?.params.response).toBe('hang-1');
});
