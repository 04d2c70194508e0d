import type { RouterOutputs } from '@lfk/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { problemOf } from '../../api/problems.ts';
import { trpc } from '../../api/trpc.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Time } from '../../components/time.tsx';

type Delivery = RouterOutputs['webhooks']['deliveries']['data'][number];
type Attempt = Delivery['attempts'][number];

/** Each delivery status's badge. */
const STATUS_BADGE: Record<Delivery['status'], string> = {
  pending: 'badge-pending',
  succeeded: 'badge-active',
  failed: 'badge-revoked',
  held: 'badge-pending',
  discarded: 'badge-revoked',
};

const attemptText = (attempt: Attempt) =>
  `${attempt.status_code ?? attempt.error ?? 'no answer'} · ${attempt.duration_ms} ms${attempt.requested ? ' · retried by a member' : ''}`;

/** One delivery: its status, attempts and payload; retrying or discarding it. */
export function DeliveryItem({ formId, webhookId, delivery }: { formId: string; webhookId: string; delivery: Delivery }) {
  const queryClient = useQueryClient();
  const ids = { form_id: formId, webhook_id: webhookId, delivery_id: delivery.id };
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter());
  const retry = useMutation({ ...trpc.webhooks.retryDelivery.mutationOptions(), onSuccess: refresh });
  const discard = useMutation({ ...trpc.webhooks.discardDelivery.mutationOptions(), onSuccess: refresh });
  const error = retry.error ?? discard.error;
  return (
    <details className="delivery">
      <summary>
        <span className={`badge ${STATUS_BADGE[delivery.status]}`}>{delivery.status}</span> {delivery.type}
        {delivery.test ? ' (a test)' : ''} <Time iso={delivery.created_at} />{' '}
        <span className="muted">
          {delivery.attempts.length} attempt{delivery.attempts.length === 1 ? '' : 's'}
          {delivery.next_attempt_at ? ' · next ' : ''}
          {delivery.next_attempt_at && <Time iso={delivery.next_attempt_at} />}
        </span>
      </summary>
      <p className="muted">
        <code>{delivery.id}</code> · <code>webhook-id: {delivery.event_id}</code> · to <code>{delivery.url}</code>
      </p>
      {delivery.status === 'held' && (
        <p role="note">
          Held: it was queued for a previous URL of this endpoint, and is not sent on its own. Retry sends it to the endpoint’s URL now; Discard drops it.
        </p>
      )}
      {delivery.status === 'discarded' && <p role="note">Discarded: it will not be sent. Retry can still send it.</p>}
      {delivery.status === 'failed' && (
        <p role="note">Failed: its automatic attempts ran out, and it is not tried again on its own. Retry sends it once more.</p>
      )}
      <h3>Attempts</h3>
      {delivery.attempts.length === 0 ? (
        <p className="muted">Not attempted yet.</p>
      ) : (
        <ol className="attempts">
          {delivery.attempts.map((attempt) => (
            <li key={attempt.at}>
              <Time iso={attempt.at} /> — {attemptText(attempt)}
              {attempt.response_excerpt && (
                // Focusable, so a keyboard can scroll a long answer.
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access.
                <section className="scrolls" tabIndex={0} aria-label="The answer's first KiB">
                  <pre>{attempt.response_excerpt}</pre>
                </section>
              )}
            </li>
          ))}
        </ol>
      )}
      <h3>Payload</h3>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region needs keyboard access. */}
      <section className="scrolls" tabIndex={0} aria-label="Payload">
        <pre>{JSON.stringify(delivery.payload, null, 2)}</pre>
      </section>
      <div className="actions">
        <button type="button" className="secondary" disabled={retry.isPending} onClick={() => retry.mutate(ids)}>
          Retry now
        </button>
        {delivery.status !== 'succeeded' && delivery.status !== 'discarded' && (
          <button type="button" className="secondary" disabled={discard.isPending} onClick={() => discard.mutate(ids)}>
            Discard
          </button>
        )}
      </div>
      <ProblemAlert problem={error ? problemOf(error) : null} />
      {retry.isSuccess && <p role="status">Retrying now, with the same webhook-id. If it fails, the automatic retries go on as they were.</p>}
    </details>
  );
}
