import { zodResolver } from '@hookform/resolvers/zod';
import { webhookCreateInput } from '@lfk/api/schemas';
import type { RouterOutputs } from '@lfk/client';
import {
  WEBHOOK_DISABLED_WHY,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_KINDS,
  WEBHOOK_SIGNING_SCHEMES,
  type WebhookDisabledReason,
  type WebhookEventType,
  type WebhookKind,
  type WebhookSigningScheme,
} from '@lfk/vocabulary';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { problemOf } from '../../api/problems.ts';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { useFormProblem } from '../../components/form-problem.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { SecretOnce } from '../../components/secret-once.tsx';
import { Empty, Loaded, LoadedList } from '../../components/states.tsx';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { Time } from '../../components/time.tsx';
import { usePageTitle } from '../../layout/page-title.ts';
import { useWorkspace } from '../../layout/workspace-context.tsx';
import { FormsBreadcrumb } from '../forms/forms-subpage.tsx';

type Webhook = RouterOutputs['webhooks']['list']['data'][number];
type Delivery = RouterOutputs['webhooks']['deliveries']['data'][number];
type Attempt = Delivery['attempts'][number];

const DELIVERIES_SHOWN = 20;
const newEndpoint = webhookCreateInput.pick({ url: true, kind: true, description: true, events: true, signing: true });

/** Each event an endpoint may take, in words. */
const EVENT_WORDS: Record<WebhookEventType, string> = {
  'submission.created': 'A submission arrives (submission.created)',
  'submission.released': 'A member releases one from spam (submission.released)',
  'submission.deleted': 'A member deletes one (submission.deleted)',
  'form.closed': 'A person closes the form (form.closed)',
  'form.reopened': 'A person reopens it (form.reopened)',
};

/** Each kind of endpoint, in words: as a choice, and what its URL is. */
const KIND_WORDS: Record<WebhookKind, { choice: string; hint: string; name: string }> = {
  webhook: { choice: 'Your server: each event as signed JSON', hint: 'An https:// address of your server, such as https://example.com/hooks/lfk.', name: 'Webhook' },
  slack: {
    choice: 'A Slack channel: a readable message for each event',
    hint: 'The channel’s incoming webhook URL (https://hooks.slack.com/services/…), or one of a service that takes Slack’s format.',
    name: 'Slack',
  },
  discord: {
    choice: 'A Discord channel: a readable message for each event',
    hint: 'The channel’s webhook URL (https://discord.com/api/webhooks/…).',
    name: 'Discord',
  },
};

/** Each way an endpoint may sign, in words. */
const SIGNING_WORDS: Record<WebhookSigningScheme, string> = {
  'hmac-sha256': 'With a secret your server keeps (HMAC-SHA256)',
  ed25519: 'With a key pair: your server holds only the public key, which cannot sign (Ed25519)',
};

export function WebhooksPage() {
  const workspace = useWorkspace();
  const { formId } = useParams({ from: '/w/$workspaceId/forms/$formId/webhooks' });
  const form = useQuery(trpc.forms.get.queryOptions({ form_id: formId }));
  usePageTitle('Webhooks', form.data?.name ?? 'Form', workspace.name);
  return (
    <>
      <FormsBreadcrumb workspaceId={workspace.id} form={form.data} />
      <Loaded query={form} what="the form">
        {(loaded) => <Endpoints formId={loaded.id} formName={loaded.name} />}
      </Loaded>
    </>
  );
}

function Endpoints({ formId, formName }: { formId: string; formName: string }) {
  const [adding, setAdding] = useState(false);
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({ form_id: formId }));
  return (
    <>
      <div className="page-header">
        <h1>Webhooks of {formName}</h1>
        <button type="button" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      </div>
      <p className="muted">
        Each event an endpoint takes is POSTed to it while it is enabled, signed with Standard Webhooks (<code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>), or to a Slack or Discord channel as a message. Failed
        deliveries are retried for about three days; one still failing then stays in the log as failed, for you to retry.
      </p>
      <LoadedList
        query={endpoints}
        what="webhooks"
        empty={
          <Empty title="No webhooks yet.">
            <p>Add an endpoint to send this form's submissions to your own systems: a CRM, a queue, a chat.</p>
          </Empty>
        }
      >
        {(page) => (
          <ul className="webhooks">
            {page.data.map((webhook) => (
              <li key={webhook.id}>
                <EndpointCard formId={formId} webhook={webhook} />
              </li>
            ))}
          </ul>
        )}
      </LoadedList>
      <AddEndpointDialog formId={formId} open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

/** The signing secret, once: from creating, rotating or revealing, kept only in the dialog that shows it. */
function SigningSecret({ secret, note, onDone }: { secret: string; note: string; onDone: () => void }) {
  return (
    <SecretOnce
      warning={
        <>
          <strong>Copy this signing secret now.</strong> {note}
        </>
      }
      label="Signing secret"
      value={secret}
      hint={
        <>
          Verify each request with it: <code>verifyWebhook(secret, headers, rawBody)</code> from <code>@lfk/client</code>, or any
          Standard Webhooks library.
        </>
      }
      onDone={onDone}
    />
  );
}

function AddEndpointDialog({ formId, open, onClose }: { formId: string; open: boolean; onClose: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const close = () => {
    setSecret(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={secret ? 'Your endpoint’s signing secret' : 'Add a webhook endpoint'}>
      {secret ? (
        <SigningSecret secret={secret} note="A member can reveal it again here later; an API key cannot." onDone={close} />
      ) : (
        <AddEndpointForm formId={formId} onCreated={setSecret} onCancel={close} />
      )}
    </Dialog>
  );
}

function AddEndpointForm({ formId, onCreated, onCancel }: { formId: string; onCreated: (secret: string) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(newEndpoint),
    defaultValues: { url: '', kind: 'webhook' as const, description: undefined, events: ['submission.created'], signing: 'hmac-sha256' as const },
  });
  const problem = useFormProblem(['url', 'kind', 'description', 'events', 'signing'], form.setError);
  const kind = form.watch('kind');
  const create = useMutation({
    // The secret goes straight to the dialog; the query cache never holds it.
    mutationFn: async (input: {
      url: string;
      kind?: WebhookKind | undefined;
      description?: string | null | undefined;
      events?: WebhookEventType[] | undefined;
      signing?: WebhookSigningScheme | undefined;
    }) => {
      const created = await trpcClient.webhooks.create.mutate({ form_id: formId, ...input });
      // An Ed25519 endpoint shares no secret (its card shows the public key), and a chat checks none.
      if (created.secret && created.kind === 'webhook') onCreated(created.secret);
      else onCancel();
      return created.id;
    },
    onSettled: () => queryClient.invalidateQueries(trpc.webhooks.list.pathFilter()),
    onError: problem.report,
  });
  return (
    <SubmitForm
      onSubmit={form.handleSubmit((input) => create.mutate(input))}
      problem={problem}
      submitLabel="Add endpoint"
      pending={create.isPending}
      onCancel={onCancel}
    >
      <fieldset>
        <legend>Where it goes</legend>
        {WEBHOOK_KINDS.map((k) => (
          <div className="field checkbox" key={k}>
            <input id={`kind-${k}`} type="radio" value={k} {...form.register('kind')} />
            <label htmlFor={`kind-${k}`}>{KIND_WORDS[k].choice}</label>
          </div>
        ))}
      </fieldset>
      <TextField form={form} name="url" label="URL" hint={KIND_WORDS[kind ?? 'webhook'].hint} autoComplete="off" />
      <TextField form={form} name="description" optional label="Description" hint="Optional: what receives it." autoComplete="off" />
      <fieldset>
        <legend>Events it receives</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <div className="field checkbox" key={type}>
            <input id={`event-${type}`} type="checkbox" value={type} {...form.register('events')} />
            <label htmlFor={`event-${type}`}>{EVENT_WORDS[type]}</label>
          </div>
        ))}
        {form.formState.errors.events && <p role="alert">{form.formState.errors.events.message ?? 'Choose at least one event.'}</p>}
      </fieldset>
      <fieldset hidden={kind !== 'webhook'}>
        <legend>How it signs</legend>
        {WEBHOOK_SIGNING_SCHEMES.map((scheme) => (
          <div className="field checkbox" key={scheme}>
            <input id={`signing-${scheme}`} type="radio" value={scheme} {...form.register('signing')} />
            <label htmlFor={`signing-${scheme}`}>{SIGNING_WORDS[scheme]}</label>
          </div>
        ))}
      </fieldset>
    </SubmitForm>
  );
}

/** The secrets that sign now, by number; one rotated away can be stopped before its 24 hours are up. */
function LiveSecrets({ formId, webhook }: { formId: string; webhook: Webhook }) {
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

/** How an endpoint's requests are signed, in a phrase. */
const SIGNED_WITH = {
  'hmac-sha256': 'signs with a shared secret',
  ed25519: 'signs with Ed25519',
  none: 'not signed (the channel checks no signature: keep its URL secret)',
} as const;

/** Why it is disabled, as a sentence: `Disabled by a person.`, `Disabled: the receiver answered 410 Gone.` */
const disabledWhy = (reason: WebhookDisabledReason) => `Disabled${reason === 'manual' ? '' : ':'} ${WEBHOOK_DISABLED_WHY[reason]}.`;

function EndpointCard({ formId, webhook }: { formId: string; webhook: Webhook }) {
  const queryClient = useQueryClient();
  const ids = { form_id: formId, webhook_id: webhook.id };
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.pathFilter());
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const [secret, setSecret] = useState<{ value: string; note: string } | null>(null);
  const [rotatedKey, setRotatedKey] = useState<string | null>(null);
  // What it missed while disabled, offered once it is enabled again, and on its card until sent.
  const [missed, setMissed] = useState<{ since: string; until: string; count: number; more: boolean } | null>(null);
  const [recovered, setRecovered] = useState<number | null>(null);
  const offerMissed = async (range: { since: string; until: string }) => {
    const counted = await trpcClient.webhooks.recover.mutate({ ...ids, ...range, dry_run: true });
    if (counted.queued > 0) return setMissed({ ...range, count: counted.queued, more: counted.next_since !== null });
    // None left to send (deleted, or sent already): a recover of nothing says so to the server, which forgets them.
    await trpcClient.webhooks.recover.mutate({ ...ids, ...range });
    await refresh();
  };
  const toggle = useMutation({
    mutationFn: async (enabled: boolean) => {
      const updated = await trpcClient.webhooks.update.mutate({ ...ids, enabled });
      const latest = updated.missed.at(-1);
      if (enabled && latest) await offerMissed(latest);
    },
    onMutate: () => setRecovered(null),
    onSettled: refresh,
  });
  const askMissed = useMutation({ mutationFn: offerMissed });
  const recover = useMutation({
    mutationFn: async (range: { since: string; until: string }) => {
      // One recover takes at most 10,000 events: go on from where each stops.
      let queued = 0;
      for (let since: string | null = range.since; since !== null; ) {
        const step = await trpcClient.webhooks.recover.mutate({ ...ids, since, until: range.until });
        queued += step.queued;
        since = step.next_since;
      }
      return queued;
    },
    onSuccess: (queued) => {
      setMissed(null);
      setRecovered(queued);
      void refresh();
    },
  });
  const test = useMutation(trpc.webhooks.test.mutationOptions());
  const remove = useMutation({ ...trpc.webhooks.delete.mutationOptions(), onSuccess: refresh });
  const reveal = useMutation({
    mutationFn: async () => (await trpcClient.webhooks.revealSecret.query(ids)).secret,
    onSuccess: (value) => setSecret({ value, note: 'Keep it on your server only.' }),
  });
  const rotate = useMutation({
    mutationFn: () => trpcClient.webhooks.rotateSecret.mutate(ids),
    onSuccess: (rotated) => {
      setConfirming(null);
      const until = rotated.previous_secret_expires_at;
      const [what, deploy] = rotated.secret ? ['Secret', 'deploy this one'] : ['Key pair', 'give your servers its public key (below)'];
      const note = until
        ? `${what} ${rotated.number}. The one it replaces keeps signing too until ${new Date(until).toLocaleString()}: ${deploy} before then.`
        : `The previous ${what.toLowerCase()} could not be kept (it was sealed under another server key): only this one signs now.`;
      // An Ed25519 endpoint's new public key is on its card; there is no secret to show once.
      if (rotated.secret) setSecret({ value: rotated.secret, note });
      else setRotatedKey(note);
      void refresh();
    },
  });
  const error = toggle.error ?? test.error ?? reveal.error ?? askMissed.error;
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
          {disabledWhy(webhook.disabled_reason)} Events while it is disabled are not sent to it (enabling it offers to send them);
          deliveries queued before it was disabled wait, and go when it is enabled again.
        </p>
      )}
      {webhook.enabled &&
        webhook.missed.map((range) => (
          <p key={range.since}>
            Events made while it was disabled (<Time iso={range.since} /> to <Time iso={range.until} />) were not sent to it.{' '}
            <button type="button" className="secondary" disabled={askMissed.isPending} onClick={() => askMissed.mutate(range)}>
              Send missed events
            </button>
          </p>
        ))}
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
      {recovered !== null && (
        <p role="status" className="ok">
          Queued {recovered === 1 ? '1 event' : `${recovered} events`} from while it was disabled, with {recovered === 1 ? 'its original id' : 'their original ids'}.
        </p>
      )}
      <ProblemAlert problem={error ? problemOf(error) : null} />
      <LiveSecrets formId={formId} webhook={webhook} />
      <DeliveryLog formId={formId} webhookId={webhook.id} />
      <Dialog open={secret !== null} onClose={() => setSecret(null)} title="Signing secret">
        {secret && <SigningSecret secret={secret.value} note={secret.note} onDone={() => setSecret(null)} />}
      </Dialog>
      <ConfirmDialog
        open={confirming === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        onConfirm={() => rotate.mutate()}
        onClose={() => {
          setConfirming(null);
          rotate.reset();
        }}
        pending={rotate.isPending}
        error={rotate.error}
      >
        <p>
          A new secret signs from now on. The current one keeps signing beside it for 24 hours, so receivers can move over, as do
          those rotated away before, each until its own end (5 at most: a rotation past them ends the oldest at once).
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={missed !== null}
        title="Send what it missed?"
        confirmLabel="Send them"
        offer={{ cancelLabel: 'Not now' }}
        onConfirm={() => missed && recover.mutate(missed)}
        onClose={() => {
          setMissed(null);
          recover.reset();
        }}
        pending={recover.isPending}
        error={recover.error}
      >
        <p>
          {missed?.more ? 'More than ' : ''}
          {missed?.count} event{missed?.count === 1 ? ' was' : 's were'} made while it was disabled. Send {missed?.count === 1 ? 'it' : 'them'} now, with{' '}
          {missed?.count === 1 ? 'its' : 'their'} original <code>webhook-id</code>, so a receiver drops any it already has?
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'delete'}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        onConfirm={() => remove.mutate(ids)}
        onClose={() => {
          setConfirming(null);
          remove.reset();
        }}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>
          Nothing more is sent to <code>{webhook.url}</code>; deliveries still waiting are cancelled, and its log is deleted.
        </p>
      </ConfirmDialog>
    </article>
  );
}

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

function DeliveryLog({ formId, webhookId }: { formId: string; webhookId: string }) {
  const deliveries = useQuery(trpc.webhooks.deliveries.queryOptions({ form_id: formId, webhook_id: webhookId, limit: DELIVERIES_SHOWN }));
  return (
    <details className="delivery-log">
      <summary>Deliveries</summary>
      <div className="toolbar">
        <p className="muted">Newest first, the last {DELIVERIES_SHOWN}.</p>
        <button type="button" className="secondary" onClick={() => deliveries.refetch()}>
          Refresh
        </button>
      </div>
      <LoadedList query={deliveries} what="deliveries" empty={<p className="muted">No deliveries yet.</p>}>
        {(page) => (
          <ol className="deliveries">
            {page.data.map((delivery) => (
              <li key={delivery.id}>
                <DeliveryItem formId={formId} webhookId={webhookId} delivery={delivery} />
              </li>
            ))}
          </ol>
        )}
      </LoadedList>
    </details>
  );
}

function DeliveryItem({ formId, webhookId, delivery }: { formId: string; webhookId: string; delivery: Delivery }) {
  const queryClient = useQueryClient();
  const ids = { form_id: formId, webhook_id: webhookId, delivery_id: delivery.id };
  const refresh = () => queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter());
  const retry = useMutation({ ...trpc.webhooks.retryDelivery.mutationOptions(), onSuccess: refresh });
  const discard = useMutation({ ...trpc.webhooks.discardDelivery.mutationOptions(), onSuccess: refresh });
  const error = retry.error ?? discard.error;
  return (
    <details className="delivery">
      <summary>
        <span className={`badge ${STATUS_BADGE[delivery.status]}`}>{delivery.status}</span>{' '}
        {delivery.type}
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
          Held: it was queued for a previous URL of this endpoint, and is not sent on its own. Retry sends it to the endpoint’s
          URL now; Discard drops it.
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
      {retry.isSuccess && (
        <p role="status">Retrying now, with the same webhook-id. If it fails, the automatic retries go on as they were.</p>
      )}
    </details>
  );
}
