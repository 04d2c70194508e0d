/**
 * Forms: unclaimed forms are invisible to keys and sessions.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '@lfk/server/testing';
import { createAnonymous, formRow, t, useWorld } from './fixtures.ts';

useWorld();

describe('unclaimed forms are not found by keys or members', () => {
  it('a key gets 404 form_not_found on GET, PATCH, resend-verification and submissions', async () => {
    const form = await createAnonymous(t);
    const { key } = await t.signupWithKey();

    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: key }), 404, 'form_not_found');
    expectError(
      await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { name: 'Hijacked' } }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: key }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/submissions`, { token: key, body: { email: 'a@example.com' } }),
      404,
      'form_not_found',
    );
    const row = await formRow(form.id);
    expect(row.name).toBe(form.name);
    expect(row.state).toBe('unclaimed');
    expect(await t.count('submissions where form_id = ?', [form.id])).toBe(0);
  });

  it('a member session gets 404 form_not_found too: the form has no workspace', async () => {
    const form = await createAnonymous(t);
    const member = await t.signup();
    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: member.token }), 404, 'form_not_found');
    expectError(
      await t.request('PATCH', `/v1/forms/${form.id}`, { token: member.token, body: { name: 'Hijacked' } }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: member.token }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: member.token }),
      404,
      'form_not_found',
    );
    expect((await formRow(form.id)).name).toBe(form.name);
  });
});
