/**
 * The authorization matrix's rows for sessions: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, login, sessionAccount, signedIn, t } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/auth/sessions',
    success: (res) => expect(res.json.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1),
    expect: signedIn(200),
  },
  {
    route: 'DELETE /v1/auth/sessions/:session_id',
    // Each session caller signs out another session of its own, made for the cell.
    prepare: async (w, caller) => {
      const account = sessionAccount(w, caller);
      if (!account) return { params: { session_id: 'ses_00000000000000000000000000' } };
      const other = await login(account.email);
      const listed = await t.request('GET', '/v1/auth/sessions', { token: other });
      const id = listed.json.data.find((s: { current: boolean }) => s.current).id as string;
      return { params: { session_id: id } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/sessions/revoke-others',
    // A person of its own for each session caller: the shared ones keep their other sessions.
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup()).token } : {}),
    success: (res) => expect(res.json).toEqual({ revoked: 0 }),
    expect: signedIn(200),
  },
];
