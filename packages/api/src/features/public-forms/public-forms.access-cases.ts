/**
 * The authorization matrix's rows for the page a form lives on (test-only; the words are
 * ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, anyone, createForm, formBody, t, type World } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    // What a page reads: anyone may, as anyone may load the page.
    route: 'GET /v1/forms/:form_id/public',
    prepare: async (w: World) => ({ params: { form_id: (await createForm(t, w.key.key, { ...formBody, allowed_origins: ['https://example.com'] })).id } }),
    success: (res) => expect(res.json).toMatchObject({ name: 'Contact', open: true, fields: [{ name: 'email', type: 'email', required: true }] }),
    expect: anyone(200),
  },
];
