/**
 * The authorization matrix's rows for drafts (test-only; the words are ../../test-tables/access.ts's,
 * the cells run in apps/server). A page's calls need the page's origin, which the matrix's callers
 * do not send: whoever they are, they are refused as a page elsewhere would be (the origin rules
 * themselves are apps/server/test/forms/drafts.test.ts's).
 */
import { expect } from 'vitest';
import { type AccessCase, createForm, type Expectations, formBody, REFUSED_CREDENTIALS, t, type World, workspaceMember } from '../../test-tables/access.ts';

/** No caller without an origin may use a page's routes; a refused credential is refused first. */
const PAGES_ONLY: Expectations = {
  no_credentials: '403 origin_not_allowed',
  owner_session: '403 origin_not_allowed',
  member_session: '403 origin_not_allowed',
  outsider_session: '403 origin_not_allowed',
  workspace_key: '403 origin_not_allowed',
  other_workspace_key: '403 origin_not_allowed',
  ...REFUSED_CREDENTIALS,
};

/** A browser form of W that keeps drafts. */
const draftForm = async (w: World) => (await createForm(t, w.key.key, { ...formBody, allowed_origins: ['https://example.com'], drafts: { enabled: true } })).id;

const TOKEN = `lfp_${'A'.repeat(43)}`;

export const accessCases: AccessCase[] = [
  {
    route: 'POST /v1/forms/:form_id/drafts',
    prepare: async (w) => ({ params: { form_id: await draftForm(w) }, body: { data: { email: 'ada@' } } }),
    success: () => {},
    expect: PAGES_ONLY,
  },
  {
    route: 'GET /v1/forms/:form_id/drafts/:resume_token',
    prepare: async (w) => ({ params: { form_id: await draftForm(w), resume_token: TOKEN } }),
    success: () => {},
    expect: PAGES_ONLY,
  },
  {
    route: 'PUT /v1/forms/:form_id/drafts/:resume_token',
    prepare: async (w) => ({ params: { form_id: await draftForm(w), resume_token: TOKEN }, body: { data: { email: 'ada@example.com' } } }),
    success: () => {},
    expect: PAGES_ONLY,
  },
  {
    route: 'POST /v1/forms/:form_id/drafts/:resume_token/email',
    prepare: async (w) => ({
      params: { form_id: await draftForm(w), resume_token: TOKEN },
      body: { email: 'ada@example.com', page_url: 'https://example.com/' },
    }),
    success: () => {},
    expect: PAGES_ONLY,
  },
  {
    route: 'GET /v1/forms/:form_id/drafts',
    prepare: async (w) => ({ params: { form_id: await draftForm(w) } }),
    success: (res) => expect(res.json).toEqual({ data: [], next_cursor: null }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
  {
    route: 'POST /v1/forms/:form_id/drafts/delete',
    prepare: async (w) => ({ params: { form_id: await draftForm(w) }, body: { ids: ['drf_unknown'] } }),
    success: (res) => expect(res.json).toEqual({ deleted: 0 }),
    expect: workspaceMember(200, '404 form_not_found'),
  },
];
