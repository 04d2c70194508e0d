/**
 * The browser-submission limit is counted per form and per client address, and only for
 * submissions that are taken: junk from one visitor never closes a form to the others.
 */
import { describe, expect, it } from 'vitest';
import { countSubmissions, createContactForm, expectCreated, expectError, ORIGIN, submit, submitOverTrpc, useTestServer, VALID } from '@lfk/server/testing';

const JUNK_SENDER = '203.0.113.66';
const VISITOR = '198.51.100.7';

describe('junk from one address never closes a form to another', () => {
  // The default allowance, over an hour: nothing refills while the test runs.
  const s = useTestServer({ LFK_RATE_LIMIT_BROWSER_SUBMISSIONS: '60/1h', LFK_TRUST_PROXY: '127.0.0.1' });

  it("61 junk posts (422) with the form's Origin, then a valid post from another address → 201", async () => {
    const owner = await s.signup();
    const form = await createContactForm(s, owner);
    for (let i = 0; i < 61; i++) {
      expectError(await submit(s, form.id, { nope: 1 }, { origin: ORIGIN, ip: JUNK_SENDER }), 422, 'validation_failed');
    }
    expectCreated(await submit(s, form.id, VALID, { origin: ORIGIN, ip: VISITOR }), form.id);
    expect(await countSubmissions(s, form.id)).toBe(1);
  });

  it('refused posts of every kind (422, wrong origin, over tRPC too) spend nothing, not even the sender’s own allowance', async () => {
    const owner = await s.signup();
    const form = await createContactForm(s, owner);
    for (let i = 0; i < 35; i++) {
      expectError(await submit(s, form.id, { nope: 1 }, { origin: ORIGIN, ip: JUNK_SENDER }), 422, 'validation_failed');
      expectError(await submit(s, form.id, VALID, { origin: 'https://evil.example', ip: JUNK_SENDER }), 403, 'origin_not_allowed');
      expectError(await submitOverTrpc(s, form.id, { nope: 1 }, { origin: ORIGIN, ip: JUNK_SENDER }), 422, 'validation_failed');
    }
    expectCreated(await submit(s, form.id, VALID, { origin: ORIGIN, ip: JUNK_SENDER }), form.id);
    expectCreated(await submit(s, form.id, VALID, { origin: ORIGIN, ip: VISITOR }), form.id);
  });
});

describe('taken submissions are counted per form and per address', () => {
  const s = useTestServer({ LFK_RATE_LIMIT_BROWSER_SUBMISSIONS: '3/1h', LFK_TRUST_PROXY: '127.0.0.1' });

  it("an address over its allowance gets 429 with Retry-After; other addresses and the address's other forms do not", async () => {
    const owner = await s.signup();
    const form = await createContactForm(s, owner);
    const other = await createContactForm(s, owner);
    for (let i = 0; i < 3; i++) expectCreated(await submit(s, form.id, VALID, { origin: ORIGIN, ip: JUNK_SENDER }), form.id);

    const over = await submit(s, form.id, VALID, { origin: ORIGIN, ip: JUNK_SENDER });
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The same allowance over tRPC: the limit belongs to the procedure, not to a transport.
    expectError(await submitOverTrpc(s, form.id, VALID, { origin: ORIGIN, ip: JUNK_SENDER }), 429, 'rate_limited');

    expectCreated(await submit(s, form.id, VALID, { origin: ORIGIN, ip: VISITOR }), form.id);
    expectCreated(await submit(s, other.id, VALID, { origin: ORIGIN, ip: JUNK_SENDER }), other.id);
    expect(await countSubmissions(s, form.id)).toBe(4);
  });
});
