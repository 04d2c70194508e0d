/**
 * The authorization matrix's rows for auto-reply stop links: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { linkTokenSentTo } from '@lfk/testing';
import { type AccessCase, anyone, createForm, formBody, freshEmail, htmlPageShowing, type Prepared, t, type World } from '../../test-tables/access.ts';

/** A stop link of its own: a form of W with an auto-reply, and a submission that sent one to a fresh address. */
async function freshStopLink(w: World): Promise<Prepared> {
  const address = freshEmail();
  const form = await createForm(t, w.key.key, { ...formBody, auto_reply: { email_field: 'email', subject: 'Thanks', text: 'We got it.' } });
  const sent = await t.request('POST', `/v1/forms/${form.id}/submissions`, { token: w.key.key, body: { email: address } });
  if (sent.status !== 201) throw new Error(`submission failed: ${sent.status} ${sent.body}`);
  return { params: { token: await linkTokenSentTo(t, address, 'auto_reply') } };
}

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/auto-reply-stops/:token',
    prepare: freshStopLink,
    // Opening it shows its button and changes nothing.
    success: htmlPageShowing('<button type="submit">Stop them</button>'),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auto-reply-stops/:token',
    prepare: freshStopLink,
    // The link is the credential: any caller holding it may press it.
    success: htmlPageShowing('Automatic replies stopped'),
    expect: anyone(200),
  },
];
