import type { RouterOutputs } from '@lfk/client';
import { useId } from 'react';
import type { Form } from '../forms/form-values.ts';

type Submission = RouterOutputs['submissions']['get'];

/**
 * What the content filter made of a submission: its score against the form's threshold, and each
 * reason as a sentence, in a list named for screen readers. Nothing for one it did not read.
 */
export function SpamVerdict({ form, submission }: { form: Form; submission: Submission }) {
  const id = useId();
  if (submission.spam_score === null) return null;
  const above = submission.spam_score > form.spam_filter.threshold;
  return (
    <div className="spam-verdict">
      <p id={`${id}-score`}>
        Spam score <strong>{submission.spam_score.toFixed(2)}</strong> of 1{' '}
        <span className="muted">
          ({above ? 'above' : 'at or below'} this form’s threshold, {form.spam_filter.threshold})
        </span>
      </p>
      {submission.spam_reasons.length > 0 && (
        <ul aria-label="What the spam filter noticed">
          {submission.spam_reasons.map((reason) => (
            <li key={reason.code}>{reason.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
