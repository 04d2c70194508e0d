import type { RouterOutputs } from '@lfk/client';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { trpc } from '../../api/trpc.ts';

type Preview = RouterOutputs['submissions']['emailPreviews']['notification'];

/** One email as a mail program shows it: its headers, then its text. */
function EmailPreview({ title, email, none }: { title: string; email: Preview; none: string }) {
  return (
    <figure className="email-preview">
      <figcaption>{title}</figcaption>
      {email ? (
        <pre className="wrap-anywhere">
          {[
            `To: ${email.to}`,
            ...(email.reply_to ? [`Reply-To: ${email.reply_to}`] : []),
            `Subject: ${email.subject}`,
            ...(email.list_unsubscribe ? [`List-Unsubscribe: <${email.list_unsubscribe}>`] : []),
            '',
            email.text,
          ].join('\n')}
        </pre>
      ) : (
        <p className="muted">{none}</p>
      )}
    </figure>
  );
}

/** What a submission of sample values would send now, as the server builds the real emails. */
export function EmailPreviews({ formId }: { formId: string }) {
  const id = useId();
  const previews = useQuery(trpc.submissions.emailPreviews.queryOptions({ form_id: formId }));
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Emails a submission sends</h2>
      <p className="hint">As a submission of sample values would send them now.</p>
      {previews.data && (
        <>
          <EmailPreview title="Notification" email={previews.data.notification} none="None: the form has no notification email." />
          <EmailPreview title="Auto-reply" email={previews.data.auto_reply} none="None: the form has no auto-reply." />
        </>
      )}
    </section>
  );
}
