/**
 * The authorization matrix's rows for password resets: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { linkTokenSentTo } from '@lfk/testing';
import { expect } from 'vitest';
import { type AccessCase, anyone, htmlPageShowing, type Prepared, t, type World } from '../../test-tables/access.ts';

/** A fresh account and the reset link it was sent: a link works once, so one per cell. */
async function freshResetLink(_w?: World): Promise<Prepared> {
  const account = await t.signup();
  const res = await t.request('POST', '/v1/auth/password-resets', { body: { email: account.email } });
  if (res.status !== 202) throw new Error(`reset request failed: ${res.status} ${res.body}`);
  return { params: { token: await linkTokenSentTo(t, account.email, 'password_reset') } };
}

export const accessCases: AccessCase[] = [
  {
    route: 'POST /v1/auth/password-resets',
    prepare: async (w) => ({ body: { email: w.owner.email } }),
    success: (res) => expect(res.json.message).toMatch(/^If an account uses this address/),
    expect: anyone(202),
  },
  {
    route: 'GET /v1/auth/password-resets/:token',
    prepare: freshResetLink,
    // Opening a link shows its form and changes nothing.
    success: htmlPageShowing('autocomplete="new-password"'),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/password-resets/:token',
    prepare: async (w) => ({ ...(await freshResetLink(w)), body: { password: 'a brand new password' } }),
    // The token is the credential, so any caller holding it may use it.
    success: (res) => expect(res.body).toBe(''),
    expect: anyone(204),
  },
];
