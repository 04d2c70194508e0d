import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { problemOf } from '../../api/problems.ts';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { Dialog } from '../../components/dialog.tsx';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { Time } from '../../components/time.tsx';
import { DeleteEndpointDialog } from './delete-endpoint-dialog.tsx';
import { DeliveryLog } from './delivery-log.tsx';
import { LiveSecrets } from './live-secrets.tsx';
import { MissedEventsDialog, MissedRanges, RecoveredNote, useMissedEvents } from './missed-events.tsx';
import { RotateSecretDialog } from './rotate-secret-dialog.tsx';
import { SigningSecret } from './signing-secret.tsx';
import { disabledWhy, KIND_WORDS, SIGNED_WITH, type Webhook } from './webhook-words.ts';

/** One endpoint: what it is and how it is doing, what can be done to it, its secrets and its deliveries. */
export function EndpointCard({ formId, webhook }: { formId: string; webhook: Webhook }) {
  const queryClient = useQueryClient();
  const ids = { form_id: formId, webhook_id: webhook.id };
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const [secret, setSecret] = useState<{ value: string; note: string } | null>(null);
  const [rotatedKey, setRotatedKey] = useState<string | null>(null);
  const missedEvents = useMissedEvents(ids, refresh);
  const toggle = useMutation({
    mutationFn: async (enabled: boolean) => {
      const updated = await trpcClient.webhooks.update.mutate({ ...ids, enabled });
      const latest = updated.missed.at(-1);
      if (enabled && latest) await missedEvents.offer(latest);
    },
    onMutate: missedEvents.forgetRecovered,
    onSettled: refresh,
  });
  const test = useMutation(trpc.webhooks.test.mutationOptions());
  const reveal = useMutation({
    mutationFn: async () => (await trpcClient.webhooks.revealSecret.query(ids)).secret,
    onSuccess: (value) => setSecret({ value, note: 'Keep it on your server only.' }),
  });
  const rotated = (rotation: { secret: string | null; note: string }) => {
    // An Ed25519 endpoint's new public key is on its card; there is no secret to show once.
    if (rotation.secret) setSecret({ value: rotation.secret, note: rotation.note });
    else setRotatedKey(rotation.note);
    void refresh();
  };
  const error = toggle.error ?? test.error ?? reveal.error ?? missedEvents.ask.error;
  return (
    <article className="webhook" aria-labelledby={`${webhook.id}-url`}>
      <header className="webhook-header">
        <h2 id={`${webhook.id}-url`} className="mono">
          {webhook.url}
        </h2>
        {webhook.kind !== 'webhook' && <span className="badge">{KIND_WORDS[webhook.kind].name}</span>}
        <span className={`badge ${webhook.enabled ? 'badge-active' : 'badge-revoked'}`}>{webhook.enabled ? 'Enabled' : 'Disabled'}</span>
      </header>
      <p className="muted">
        {webhook.description ? `${webhook.description} · ` : ''}
        <code>{webhook.id}</code> · events: {webhook.events.join(', ')} · {SIGNED_WITH[webhook.signing ?? 'none']} · last delivery:{' '}
        {webhook.last_delivery_at ? (
          <>
            {webhook.last_status} <Time iso={webhook.last_delivery_at} />
          </>
        ) : (
          'none yet'
        )}
      </p>
      {webhook.public_key && (
        <p>
          Public key: <code className="secret-value">{webhook.public_key}</code> — your server verifies each request with it (
          <code>verifyWebhook(publicKey, headers, rawBody)</code> from <code>@lfk/client</code>); it is not a secret, and cannot sign.
        </p>
      )}
      {rotatedKey && (
        <p role="status" className="ok">
          {rotatedKey}
        </p>
      )}
      {!webhook.enabled && webhook.disabled_reason && (
        <p>
          {disabledWhy(webhook.disabled_reason)} Events while it is disabled are not sent to it (enabling it offers to send them); deliveries queued before it
          was disabled wait, and go when it is enabled again.
        </p>
      )}
      <MissedRanges webhook={webhook} missedEvents={missedEvents} />
      <div className="actions">
        <button type="button" className="secondary" disabled={test.isPending} onClick={() => test.mutate(ids)}>
          Send test event
        </button>
        <button type="button" className="secondary" disabled={toggle.isPending} onClick={() => toggle.mutate(!webhook.enabled)}>
          {webhook.enabled ? 'Disable' : 'Enable'}
        </button>
        {webhook.signing === 'hmac-sha256' && (
          <button type="button" className="secondary" disabled={reveal.isPending} onClick={() => reveal.mutate()}>
            Reveal secret
          </button>
        )}
        {webhook.signing && (
          <button type="button" className="secondary" onClick={() => setConfirming('rotate')}>
            Rotate secret
          </button>
        )}
        <button type="button" className="danger" onClick={() => setConfirming('delete')}>
          Delete
        </button>
      </div>
      {test.data && (
        <p role="status" className={test.data.status === 'succeeded' ? 'ok' : 'failed'}>
          Test event {test.data.status}: {test.data.status_code ?? test.data.error} in {test.data.duration_ms} ms
          {test.data.response_excerpt ? ` — “${test.data.response_excerpt.slice(0, 200)}”` : ''}
        </p>
      )}
      <RecoveredNote missedEvents={missedEvents} />
      <ProblemAlert problem={error ? problemOf(error) : null} />
      <LiveSecrets formId={formId} webhook={webhook} />
      <DeliveryLog formId={formId} webhookId={webhook.id} />
      <Dialog open={secret !== null} onClose={() => setSecret(null)} title="Signing secret">
        {secret && <SigningSecret secret={secret.value} note={secret.note} onDone={() => setSecret(null)} />}
      </Dialog>
      <RotateSecretDialog ids={ids} open={confirming === 'rotate'} onClose={() => setConfirming(null)} onRotated={rotated} />
      <MissedEventsDialog missedEvents={missedEvents} />
      <DeleteEndpointDialog ids={ids} url={webhook.url} open={confirming === 'delete'} onClose={() => setConfirming(null)} onDeleted={refresh} />
    </article>
  );
}
