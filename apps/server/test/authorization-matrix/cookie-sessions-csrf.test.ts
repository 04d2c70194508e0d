/**
 * Authorization matrix: cookie sessions, where the CSRF check knows the server's origin from LFK_PUBLIC_URL, never from Host.
 */
import { restRoutes } from '@lfk/api';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '@lfk/server/testing';
import { UNKNOWN_IDS } from '../path-params.ts';
import { errorCodeOf, MATRIX, routeKey, t, urlOf, useWorld, w } from './matrix.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Cookie sessions: the CSRF check knows the server's origin from LFK_PUBLIC_URL, never from Host
// ---------------------------------------------------------------------------------------------

describe('cookie sessions from a page of another host', () => {
  /** Every route a session changes state through: not public, not a GET, and refused without credentials. */
  const stateChanging = restRoutes.filter((r) => {
    const row = MATRIX.find((m) => m.route === routeKey(r))!;
    return r.access !== 'public' && r.method !== 'GET' && typeof row.expect.no_credentials === 'string';
  });
  it.each(stateChanging.map((r) => ({ route: routeKey(r), r })))('$route · owner cookie, Host and Origin of another site → 403 csrf_failed', async ({ r }) => {
    // A session of this test's own: one of these routes is logout, which would end a shared one.
    const login = await t.request('POST', '/v1/auth/login', { body: { email: w.owner.email, password: PASSWORD } });
    expect(login.status, login.body).toBe(200);
    const cookie = `lfk_session=${login.json.session_token}`;
    const forged = await t.request(r.method, urlOf(r.path, { ...UNKNOWN_IDS, workspace_id: w.ws, form_id: w.formId }), {
      headers: { cookie, host: 'evil.example', origin: 'http://evil.example' },
      body: {},
    });
    expect({ status: forged.status, code: errorCodeOf(forged) }, forged.body).toEqual({ status: 403, code: 'csrf_failed' });

    // Ids that name nothing: a request that got past the CSRF check changes nothing.
    const own = await t.request(r.method, urlOf(r.path, UNKNOWN_IDS), {
      headers: { cookie, host: 'evil.example', origin: 'http://lfk.test' },
      body: {},
    });
    expect(errorCodeOf(own), own.body).not.toBe('csrf_failed');
    expect(own.status, own.body).toBeLessThan(500);
  });
});
