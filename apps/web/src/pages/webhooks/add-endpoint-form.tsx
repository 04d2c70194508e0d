import { zodResolver } from '@hookform/resolvers/zod';
import { webhookCreateInput } from '@lfk/api/schemas';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_KINDS,
  WEBHOOK_SIGNING_SCHEMES,
  type WebhookEventType,
  type WebhookKind,
  type WebhookSigningScheme,
} from '@lfk/vocabulary';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { trpc, trpcClient } from '../../api/trpc.ts';
import { useFormProblem } from '../../components/form-problem.ts';
import { SubmitForm } from '../../components/submit-form.tsx';
import { TextField } from '../../components/text-field.tsx';
import { EVENT_WORDS, KIND_WORDS, SIGNING_WORDS } from './webhook-words.ts';

const newEndpoint = webhookCreateInput.pick({ url: true, kind: true, description: true, events: true, signing: true });

/** A new endpoint: where it goes, its URL, the events it takes, how it signs. */
export function AddEndpointForm({ formId, onCreated, onCancel }: { formId: string; onCreated: (secret: string) => void; onCancel: () => void }) {
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
