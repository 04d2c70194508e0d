/**
 * Authorization matrix: submissions decide once, in the procedure: the same answer over tRPC, and the CORS grant.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createForm } from '@lfk/server/testing';
import { type Caller, CALLERS, formBody, MATRIX, t, tokenOf, useWorld, w } from './matrix.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Submissions decide once, in the procedure: the same answer over tRPC, and the CORS grant.
// ---------------------------------------------------------------------------------------------

describe('submissions: one decision per caller, whichever door', () => {
  const submissionRow = MATRIX.find((row) => row.route === 'POST /v1/forms/:form_id/submissions')!;
  const origin = 'https://matrix.example';
  let browserFormId: string;
  beforeAll(async () => {
    browserFormId = (await createForm(t, w.key.key, { ...formBody, allowed_origins: [origin] })).id;
  });

  it.each(CALLERS)('submissions.create over tRPC · %s → the REST row’s answer', async (caller) => {
    const token = tokenOf(w, caller);
    const res = await t.request('POST', '/trpc/submissions.create', {
      ...(token !== undefined ? { token } : {}),
      body: { form_id: w.apiKeyFormId, data: { email: 'someone@example.org' } },
    });
    const expected = submissionRow.expect[caller];
    if (typeof expected === 'number') {
      expect(res.status, res.body).toBe(200);
      expect(res.json.result.data.form_id).toBe(w.apiKeyFormId);
    } else {
      const [status, code] = expected.split(' ');
      expect({ status: res.status, code: res.json?.error?.data?.code }, res.body).toEqual({ status: Number(status), code });
    }
  });

  // A credential in the Authorization header marks a server's call: only a bare browser may read the answer.
  const BROWSER_FORM: Record<Caller, { status: number; cors: boolean }> = {
    no_credentials: { status: 201, cors: true },
    owner_session: { status: 201, cors: false },
    member_session: { status: 201, cors: false },
    outsider_session: { status: 201, cors: false },
    expired_session: { status: 401, cors: false },
    signed_out_session: { status: 401, cors: false },
    workspace_key: { status: 201, cors: false },
    other_workspace_key: { status: 403, cors: false },
    revoked_key: { status: 401, cors: false },
    malformed_bearer: { status: 401, cors: false },
    bad_checksum_key: { status: 401, cors: false },
  };

  it.each(CALLERS)('a browser-mode form post from its origin · %s → status and CORS grant', async (caller) => {
    const token = tokenOf(w, caller);
    const res = await t.request('POST', `/v1/forms/${browserFormId}/submissions`, {
      ...(token !== undefined ? { token } : {}),
      body: { email: 'someone@example.org' },
      headers: { origin },
    });
    const { status, cors } = BROWSER_FORM[caller];
    expect(res.status, res.body).toBe(status);
    expect(res.headers['access-control-allow-origin'], res.body).toBe(cors ? origin : undefined);
  });
});
