import { useMutation, useQueryClient } from '@tanstack/react-query';
import { problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Time } from '../../components/time.tsx';
import type { Webhook } from './webhook-words.ts';

/** The secrets that sign now, by number; one rotated away can be stopped before its 24 hours are up. */
export function LiveSecrets({ formId, webhook }: { formId: string; webhook: Webhook }) {
  const queryClient = useQueryClient();
  const end = useMutation({ ...trpc.webhooks.endSecret.mutationOptions(), onSuccess: () => queryClient.invalidateQueries(trpc.webhooks.pathFilter()) });
  if (webhook.secrets.length < 2) return null;
  return (
    <section aria-label="Secrets that sign now">
      <h3>Secrets that sign now</h3>
      <ul className="secrets">
        {webhook.secrets.map((secret) => (
          <li key={secret.number}>
            Secret {secret.number}:{' '}
            {secret.expires_at ? (
              <>
                rotated away, signs until <Time iso={secret.expires_at} />{' '}
                <button
                  type="button"
                  className="secondary"
                  disabled={end.isPending}
                  onClick={() => end.mutate({ form_id: formId, webhook_id: webhook.id, secret_number: secret.number })}
                >
                  Stop it now
                </button>
              </>
            ) : (
              'current'
            )}
          </li>
        ))}
      </ul>
      <ProblemAlert problem={end.error ? problemOf(end.error) : null} />
    </section>
  );
}
