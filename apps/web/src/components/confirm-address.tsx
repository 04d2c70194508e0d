import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '../api/problems.ts';
import { trpc } from '../api/trpc.ts';
import { ProblemAlert } from './problem-alert.tsx';

/** "Send a new link" to confirm the signed-in person's address, and what became of it. */
export function SendConfirmationLink() {
  const [said, setSaid] = useState('');
  const resend = useMutation({
    ...trpc.auth.resendEmailVerification.mutationOptions(),
    onSuccess: ({ sent_to }) => setSaid(`Sent a link to ${sent_to}: open it and press “Verify”.`),
  });
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={resend.isPending}
        onClick={() => {
          setSaid('');
          resend.mutate();
        }}
      >
        Send a new link
      </button>
      <ProblemAlert problem={resend.error ? problemOf(resend.error) : null} />
      <p role="status">{said}</p>
    </>
  );
}

/**
 * Above every page until the signed-in person confirms their address: the server refuses what
 * would hand out reach (an API key, a webhook, an invitation) until then (403 `email_not_confirmed`),
 * so the banner says so, and how to confirm. Nothing once the address is confirmed.
 */
export function ConfirmAddressBanner() {
  const session = useQuery(trpc.auth.session.queryOptions());
  const user = session.data?.user;
  if (!user || user.email_verified) return null;
  return (
    <div className="notice banner" role="note" aria-label="Confirm your email address">
      <p>
        <strong>Confirm your email address.</strong> Open the link emailed to {user.email} when you signed up and press “Verify”. Until then you can make forms,
        but not create API keys, add webhooks, set auto-replies or invite anyone, so that nobody can hand these out, or mail strangers, with an address that is
        not theirs.
      </p>
      <SendConfirmationLink />
    </div>
  );
}
