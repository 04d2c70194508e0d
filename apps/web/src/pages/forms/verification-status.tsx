import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { type Problem, problemOf, waitPhrase } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import type { Form } from './form-values.ts';

function explainResend(problem: Problem) {
  if (problem.code !== 'rate_limited') return undefined;
  const wait = problem.retryAfterSeconds !== null ? `in ${waitPhrase(problem.retryAfterSeconds)}` : 'in a minute';
  return (
    'One verification email per form goes out at a time, so inboxes are not flooded. ' +
    `The last link is still valid: check the inbox (and spam). You can resend ${wait}.`
  );
}

/** Whether each notification email is verified and, while one is not, a way to send the links again. */
export function VerificationStatus({ form }: { form: Form }) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const resend = useMutation({
    ...trpc.forms.resendVerification.mutationOptions(),
    onError: (error) => setProblem(problemOf(error)),
  });
  if (form.notify_emails.length === 0) return null;
  const verified = new Set(form.verified_notify_emails);
  const waiting = form.notify_emails.filter((address) => !verified.has(address));
  return (
    <div className="verification">
      <ul className="plain-list">
        {form.notify_emails.map((address) => (
          <li key={address}>
            {verified.has(address) ? (
              <>
                <span className="badge badge-active">Verified</span> Submissions are emailed to {address}.
              </>
            ) : (
              <>
                <span className="badge badge-pending">Not verified</span> {address} gets no submissions until someone there opens the link we emailed and
                presses Verify.
              </>
            )}
          </li>
        ))}
      </ul>
      {verified.size === 0 && (
        <p className="wrap-anywhere">
          {form.notified_addresses.length > 0
            ? `Until one is verified, submissions are still emailed to ${form.notified_addresses.join(', ')}.`
            : 'Until one is verified, no submission is emailed to anyone.'}
        </p>
      )}
      {waiting.length > 0 && (
        <>
          <button
            type="button"
            className="secondary"
            disabled={resend.isPending}
            onClick={() => {
              setProblem(null);
              resend.mutate({ form_id: form.id });
            }}
          >
            Resend verification {waiting.length === 1 ? 'email' : 'emails'}
          </button>
          <p role="status">{resend.isSuccess ? `Sent a new link to ${resend.data.sent_to_all.join(', ')}.` : ''}</p>
          <ProblemAlert problem={problem} explain={explainResend} />
        </>
      )}
    </div>
  );
}
