/**
 * The authorization matrix's rows for verification links: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { verificationTokenSentTo } from '@lfk/testing';
import { type AccessCase, anyone, createForm, formBody, freshEmail, htmlPageShowing, type Prepared, t, type World } from '../../test-tables/access.ts';

/** A fresh form and the link its verification email carries: a link works once, so one per cell. */
async function freshVerificationLink(w: World): Promise<Prepared> {
  const address = freshEmail();
  await createForm(t, w.key.key, { ...formBody, notify_email: address });
  return { params: { token: await verificationTokenSentTo(t, address) } };
}

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/email-verifications/:token',
    prepare: freshVerificationLink,
    // Opening a link shows its "Verify" button and changes nothing.
    success: htmlPageShowing('<button type="submit">Verify</button>'),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/email-verifications/:token',
    prepare: freshVerificationLink,
    // The button verifies: the token is the credential, so any caller holding it may press it.
    success: htmlPageShowing('Address verified'),
    expect: anyone(200),
  },
];
