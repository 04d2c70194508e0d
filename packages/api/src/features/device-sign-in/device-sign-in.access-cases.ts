/**
 * The authorization matrix's rows for device sign-in: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, anyone, signedIn, t } from '../../test-tables/access.ts';

/** A device's sign-in request, pending: its secret device code and the code a person approves. */
async function startDeviceLogin(): Promise<{ device_code: string; user_code: string }> {
  const res = await t.request('POST', '/v1/auth/device-logins', { body: { device_name: 'matrix' } });
  expect(res.status, res.body).toBe(201);
  return res.json;
}

export const accessCases: AccessCase[] = [
  {
    route: 'POST /v1/auth/device-logins',
    prepare: async () => ({ body: { device_name: 'matrix' } }),
    success: (res) => {
      expect(res.json.device_code).toMatch(/^lfd_/);
      expect(res.json.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    },
    expect: anyone(201),
  },
  {
    route: 'GET /v1/auth/device-logins/:user_code',
    prepare: async () => ({ params: { user_code: (await startDeviceLogin()).user_code } }),
    success: (res) => expect(res.json).toMatchObject({ device_name: 'matrix', state: 'pending' }),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/device-logins/:user_code/approve',
    prepare: async () => ({ params: { user_code: (await startDeviceLogin()).user_code } }),
    success: (res) => expect(res.json.state).toBe('approved'),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/device-logins/:user_code/deny',
    prepare: async () => ({ params: { user_code: (await startDeviceLogin()).user_code } }),
    success: (res) => expect(res.json.state).toBe('denied'),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/device-logins/token',
    // Each cell polls a sign-in the owner approved; the session it gets is the owner's.
    prepare: async (w) => {
      const started = await startDeviceLogin();
      await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: w.owner.token });
      return { body: { device_code: started.device_code } };
    },
    success: (res, { w }) => {
      expect(res.json.user.id).toBe(w.owner.userId);
      expect(res.json.session_token).toMatch(/^lfs_/);
    },
    expect: anyone(200),
  },
];
