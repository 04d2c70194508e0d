import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { type Problem, problemOf, waitPhrase } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import type { Form } from './form-values.ts';

function explainResend(problem: Problem) {
  if (problem.code !== 'rate_limited') return undefined;
  const wait = problem.retryAfterSeconds !== null ? `in ${waitPhrase(problem.retryAfterSeconds)}` : 'in a minute';
  return `One verification email per form goes out at a time, so inboxes are not flooded. The last link is still valid: check the inbox (and spam). You can resend ${wait}.`;
}

/** Whether the notify email is verified and, if not, a way to send the link again. */
export function VerificationStatus({ form }: { form: Form }) {
  const [problem, setProblem] = useState<Problem | null>(null);
  const resend = useMutation({
    ...trpc.forms.resendVerification.mutationOptions(),
    onError: (error) => setProblem(problemOf(error)),
  });
  if (!form.notify_email) return null;
  if (form.notify_email_verified) {
    return (
      <p className="verification wrap-anywhere">
        <span className="badge badge-active">Verified</span> Submissions are emailed to {form.notify_email}.
      </p>
    );
  }
  return (
    <div className="verification">
      <p className="wrap-anywhere">
        <span className="badge badge-pending">Not verified</span> {form.notify_email} gets no submissions until someone
        there opens the link we emailed and presses Verify.
        {form.notifications_to
          ? ` Until then, submissions are still emailed to ${form.notifications_to}.`
          : ' Until then, no submission is emailed to anyone.'}
      </p>
      <button type="button" className="secondary" disabled={resend.isPending} onClick={() => {
          setProblem(null);
          resend.mutate({ form_id: form.id });
        }}>
        Resend verification email
      </button>
      <p role="status">{resend.isSuccess ? `Sent a new link to ${resend.data.sent_to}.` : ''}</p>
      <ProblemAlert problem={problem} explain={explainResend} />
    </div>
  );
}
