import { Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { RouterOutputs } from '@lfk/client';
import { WEBHOOK_DISABLED_WHY, WEBHOOK_EVENT_TYPES, WEBHOOK_KINDS, WEBHOOK_SIGNING_SCHEMES, type WebhookEventType } from '@lfk/vocabulary';
import { type CommandContext, formsApi, sessionApi, signedIn, withClient } from '../command-context.ts';
import { usageError } from '../errors.ts';
import { timeOrAgo } from '../input/durations.ts';
import type { Column, RecordEntry } from '../output/table.ts';
import { confirmOrStop } from '../terminal/prompts.ts';
import { commandGroup, paged } from './options.ts';
import { listed, noteNextPage } from './pages.ts';
import { action, callAndShow } from './run-command.ts';

type Webhook = RouterOutputs['webhooks']['get'];
type Delivery = RouterOutputs['webhooks']['deliveries']['data'][number];
type Attempt = Delivery['attempts'][number];
type TestResult = RouterOutputs['webhooks']['test'];
type Recovered = RouterOutputs['webhooks']['recover'];

const formOption = () => new Option('--form <form_id>', 'the form the endpoint belongs to').makeOptionMandatory();
/** `--event`, repeatable, one of the event types (commander's `choices` takes one value, not a list). */
const eventOption = () =>
  new Option('--event <type>', `an event to send; repeat for each (${WEBHOOK_EVENT_TYPES.join(', ')}; default: submission.created)`).argParser(
    (value: string, previous: WebhookEventType[] = []) => {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(value)) {
        throw new InvalidArgumentError(`Allowed choices are ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
      }
      return [...previous, value as WebhookEventType];
    },
  );

function stateOf(webhook: Webhook, ctx: CommandContext): [string, string, (text: string) => string] {
  const { style } = ctx.out;
  if (webhook.enabled) return ['state', 'enabled', style.green];
  return ['state', `disabled (${WEBHOOK_DISABLED_WHY[webhook.disabled_reason ?? 'manual']})`, style.yellow];
}

function printWebhook(webhook: Webhook, ctx: CommandContext): void {
  ctx.out.record([
    ['id', webhook.id],
    ['form', webhook.form_id],
    ['url', webhook.url],
    ['kind', webhook.kind],
    ['description', webhook.description ?? '-'],
    ['events', webhook.events.join(', ')],
    ['signing', webhook.signing ?? 'none (Slack and Discord check no signature: keep the URL secret)'],
    ...(webhook.public_key ? [['public key', webhook.public_key] as [string, string]] : []),
    stateOf(webhook, ctx),
    ...webhook.missed.map(
      (range): RecordEntry => [
        'missed events',
        `made while it was disabled, ${range.since} to ${range.until}, not sent: ` +
          `lfk webhooks recover ${webhook.id} --form ${webhook.form_id} --since ${range.since} --until ${range.until}`,
        ctx.out.style.yellow,
      ],
    ),
    ['last delivery', webhook.last_delivery_at ? `${webhook.last_status} at ${webhook.last_delivery_at}` : 'none yet'],
    ...webhook.secrets.map((secret): [string, string] => [
      `secret ${secret.number}`,
      (secret.expires_at ? `rotated away, signs until ${secret.expires_at}` : 'current') + (secret.public_key ? ` (${secret.public_key})` : ''),
    ]),
    ['created', webhook.created_at],
  ]);
}

/** The secret once, with what to do with it. */
function printSecret(ctx: CommandContext, secret: string, what: string): void {
  ctx.out.line();
  ctx.out.line(`signing secret  ${ctx.out.style.bold(secret)}`);
  ctx.out.note(ctx.out.errorStyle.yellow(`${what} Verify each request with it (verifyWebhook in @lfk/client, or any Standard Webhooks library).`));
}

/** An Ed25519 endpoint's public key, with what to do with it. */
function printPublicKey(ctx: CommandContext, publicKey: string, what: string): void {
  ctx.out.line();
  ctx.out.line(`public key  ${ctx.out.style.bold(publicKey)}`);
  ctx.out.note(`${what} Verify each request with it (verifyWebhook in @lfk/client takes it); it is not a secret, and cannot sign.`);
}

/** What a new or rotated key gives its receivers: the secret once, or the public key. */
function printKey(ctx: CommandContext, key: { secret: string | null; public_key: string | null }, what: string): void {
  if (key.secret) printSecret(ctx, key.secret, what);
  else if (key.public_key) printPublicKey(ctx, key.public_key, what);
}

/** An attempt in a few words: the status, or why there was none. */
const attemptText = (a: Pick<Attempt, 'status_code' | 'error' | 'duration_ms'>) => `${a.status_code ?? a.error ?? 'no answer'} in ${a.duration_ms} ms`;

const webhooksCreateCommand = () =>
  new Command('create')
    .description('Add a webhook endpoint to a form; its signing secret is shown once')
    .addOption(formOption())
    .requiredOption('--url <url>', 'where events are POSTed (https, a public address)')
    .addOption(
      new Option('--kind <kind>', 'webhook: signed JSON events; slack or discord: --url is their incoming webhook, and gets readable messages')
        .choices(WEBHOOK_KINDS)
        .default('webhook' as const),
    )
    .option('--description <text>', 'what it is for')
    .addOption(eventOption())
    .addOption(
      new Option('--signing <scheme>', 'hmac-sha256: a secret shared with the receiver; ed25519: the receiver holds only a public key')
        .choices(WEBHOOK_SIGNING_SCHEMES)
        .default('hmac-sha256' as const),
    )
    .option('--idempotency-key <key>', 'reuse to make a repeated command add at most one endpoint')
    .action(
      action(async (ctx, flags) => {
        const api = await formsApi(ctx);
        const created = await api.webhooks.create.mutate(
          {
            form_id: flags.form,
            url: flags.url,
            kind: flags.kind,
            signing: flags.signing,
            ...(flags.description !== undefined ? { description: flags.description } : {}),
            ...(flags.event ? { events: flags.event } : {}),
          },
          { context: { idempotencyKey: flags.idempotencyKey ?? crypto.randomUUID() } },
        );
        ctx.out.result(created, (created) => {
          ctx.out.note(`Added webhook ${created.id} to ${created.form_id}.`);
          printWebhook(created, ctx);
          if (created.secret)
            printSecret(ctx, created.secret, 'This is the only time the secret is shown to a key; a member can reveal it again with a session.');
          else if (created.public_key) printPublicKey(ctx, created.public_key, `'lfk webhooks get' shows it again.`);
        });
      }),
    );

const columns: Column<Webhook>[] = [
  { header: 'ID', value: (w) => w.id },
  { header: 'URL', value: (w) => w.url, shrink: true },
  { header: 'STATE', value: (w) => (w.enabled ? 'enabled' : `disabled (${w.disabled_reason})`) },
  { header: 'LAST', value: (w) => w.last_status ?? '-', optional: true },
  { header: 'LAST AT', value: (w) => w.last_delivery_at ?? '', time: true, optional: true },
];

const webhooksListCommand = () =>
  new Command('list')
    .description("A form's webhook endpoints")
    .addOption(formOption())
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, flags) => api.webhooks.list.query({ form_id: flags.form }),
        (page, ctx, flags) => {
          if (page.data.length === 0)
            return ctx.out.line(`No webhooks on ${flags.form}. Add one with 'lfk webhooks create --form ${flags.form} --url https://…'.`);
          ctx.out.table(columns, page.data);
        },
      ),
    );

const webhooksGetCommand = () =>
  new Command('get')
    .description('Show a webhook endpoint')
    .argument('<webhook_id>', 'the endpoint, e.g. wh_…')
    .addOption(formOption())
    .action(
      callAndShow(withClient(formsApi), ({ api }, webhookId, flags) => api.webhooks.get.query({ form_id: flags.form, webhook_id: webhookId }), printWebhook),
    );

const webhooksUpdateCommand = () =>
  new Command('update')
    .description('Change an endpoint; --disable: events from then on are not sent to it, and what was queued waits; --enable sends what waited')
    .argument('<webhook_id>', 'the endpoint')
    .addOption(formOption())
    .option('--url <url>', 'a new URL')
    .option('--description <text>', 'a new description')
    .option('--no-description', 'remove the description')
    .addOption(eventOption())
    .option('--enable', 'deliver again')
    .option('--disable', 'stop delivering: new events are not sent to it while disabled')
    .action(
      action(async (ctx, webhookId, flags) => {
        if (flags.enable && flags.disable) throw usageError('conflicting_flags', 'Give --enable or --disable, not both.');
        const body = {
          ...(flags.url !== undefined ? { url: flags.url } : {}),
          ...(flags.description !== undefined ? { description: flags.description === false ? null : flags.description } : {}),
          ...(flags.event ? { events: flags.event } : {}),
          ...(flags.enable ? { enabled: true } : flags.disable ? { enabled: false } : {}),
        };
        if (Object.keys(body).length === 0) throw usageError('nothing_to_update', 'Say what to change: see lfk webhooks update --help.');
        const api = await formsApi(ctx);
        // Since when it was disabled, to say how to send what it missed.
        const disabledAt = flags.enable ? (await api.webhooks.get.query({ form_id: flags.form, webhook_id: webhookId })).disabled_at : null;
        const webhook = await api.webhooks.update.mutate({ form_id: flags.form, webhook_id: webhookId, ...body });
        ctx.out.result(webhook, (webhook) => {
          ctx.out.note(`Updated webhook ${webhook.id}.`);
          if (disabledAt) {
            ctx.out.note(
              `Events made while it was disabled (since ${disabledAt}) were not sent to it. With a session, ` +
                `'lfk webhooks recover ${webhookId} --form ${flags.form} --since ${disabledAt} --until ${webhook.updated_at}' sends them.`,
            );
          }
          if (flags.url !== undefined) {
            ctx.out.note(
              `New events go to the new URL. Deliveries still waiting for the previous one are held (never sent there): ` +
                `with a session, 'lfk webhooks deliveries ${webhookId} --form ${flags.form}' lists them, to retry (to the new URL) or discard.`,
            );
          }
          printWebhook(webhook, ctx);
        });
      }),
    );

const webhooksDeleteCommand = () =>
  new Command('delete')
    .description('Delete an endpoint; its pending deliveries are cancelled')
    .argument('<webhook_id>', 'the endpoint')
    .addOption(formOption())
    .option('-y, --yes', 'delete without asking')
    .action(
      action(async (ctx, webhookId, flags) => {
        if (!flags.yes)
          await confirmOrStop(`Delete ${webhookId}? Its pending deliveries are cancelled.`, '--yes to delete without asking', 'Nothing was deleted.');
        // A client of its own after the question, so time spent answering is not spent from the timeout.
        const api = await formsApi(ctx);
        await api.webhooks.delete.mutate({ form_id: flags.form, webhook_id: webhookId });
        ctx.out.result({ id: webhookId, deleted: true }, () => ctx.out.line(`Deleted ${webhookId}.`));
      }),
    );

const webhooksTestCommand = () =>
  new Command('test')
    .description('Send a signed webhook.test event to the endpoint now, and show how it went')
    .argument('<webhook_id>', 'the endpoint')
    .addOption(formOption())
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, webhookId, flags) => api.webhooks.test.mutate({ form_id: flags.form, webhook_id: webhookId }),
        (result: TestResult, ctx) => {
          const colour = result.status === 'succeeded' ? ctx.out.style.green : ctx.out.style.red;
          ctx.out.record([
            ['result', result.status, colour],
            ['answer', attemptText(result)],
            ['body', result.response_excerpt ?? '-'],
          ]);
        },
      ),
    );

const webhooksRotateSecretCommand = () =>
  new Command('rotate-secret')
    .description(
      'A new signing secret (or key pair, for ed25519); the one it replaces keeps signing beside it for 24 hours, as do those rotated away before (5 at most)',
    )
    .argument('<webhook_id>', 'the endpoint')
    .addOption(formOption())
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, webhookId, flags) => api.webhooks.rotateSecret.mutate({ form_id: flags.form, webhook_id: webhookId }),
        (rotated, ctx) =>
          printKey(
            ctx,
            rotated,
            rotated.previous_secret_expires_at
              ? `Secret ${rotated.number}. The one it replaces signs beside it until ${rotated.previous_secret_expires_at}: deploy the new one before then.`
              : `Secret ${rotated.number}. The previous secret could not be kept (sealed under another LFK_SECRET_KEY): it no longer signs.`,
          ),
      ),
    );

const webhooksEndSecretCommand = () =>
  new Command('end-secret')
    .description('Stop a secret rotated away from signing now, before its 24 hours are up (see its number in `lfk webhooks get`)')
    .argument('<webhook_id>', 'the endpoint')
    .argument('<number>', "the secret's number")
    .addOption(formOption())
    .action(
      callAndShow(
        withClient(formsApi),
        ({ api }, webhookId, number, flags) => api.webhooks.endSecret.mutate({ form_id: flags.form, webhook_id: webhookId, secret_number: number }),
        printWebhook,
      ),
    );

const webhooksSecretCommand = () =>
  new Command('secret')
    .description("Show an endpoint's signing secret (needs a session)")
    .argument('<webhook_id>', 'the endpoint')
    .addOption(formOption())
    .action(
      callAndShow(
        signedIn,
        ({ api }, webhookId, flags) => api.webhooks.revealSecret.query({ form_id: flags.form, webhook_id: webhookId }),
        (revealed, ctx) => ctx.out.line(revealed.secret),
      ),
    );

/** A delivery's status in words a member acts on. */
const deliveryStatusText = (d: Delivery) =>
  ({
    pending: d.next_attempt_at ? 'pending' : 'pending (endpoint disabled)',
    succeeded: 'succeeded',
    failed: 'failed: out of attempts (retry sends it)',
    held: 'held: for a previous URL (retry or discard)',
    discarded: 'discarded',
  })[d.status];

const deliveryColumns: Column<Delivery>[] = [
  { header: 'ID', value: (d) => d.id },
  { header: 'EVENT', value: (d) => d.event_id, optional: true },
  { header: 'TYPE', value: (d) => (d.test ? `${d.type} (a test)` : d.type), optional: true },
  { header: 'STATUS', value: deliveryStatusText },
  { header: 'TO', value: (d) => d.url, shrink: true, optional: true },
  { header: 'ATTEMPTS', value: (d) => String(d.attempts.length) },
  { header: 'LAST ANSWER', value: (d) => (d.attempts.length ? attemptText(d.attempts.at(-1)!) : '-'), shrink: true },
  { header: 'NEXT', value: (d) => d.next_attempt_at ?? '', time: true, optional: true },
  { header: 'CREATED', value: (d) => d.created_at, time: true, optional: true },
];

const webhooksDeliveriesCommand = () =>
  paged(new Command('deliveries').argument('<webhook_id>', 'the endpoint'))
    .description("An endpoint's deliveries, newest first, with their attempts (needs a session; --json for payloads)")
    .addOption(formOption())
    .action(
      action(async (ctx, webhookId, flags) => {
        const api = await sessionApi(ctx);
        const page = await listed(flags, (input) => api.webhooks.deliveries.query({ form_id: flags.form, webhook_id: webhookId, ...input }));
        ctx.out.result(page, (page) => {
          if (page.data.length === 0) return ctx.out.line(`No deliveries to ${webhookId} yet.`);
          ctx.out.table(deliveryColumns, page.data);
          noteNextPage(ctx, page.next_cursor);
        });
      }),
    );

/** A command on one delivery of an endpoint: a session's mutation, then one line of what it did. */
const deliveryCommand = (name: string, description: string, procedure: 'retryDelivery' | 'discardDelivery', said: (delivery: Delivery) => string) =>
  new Command(name)
    .description(description)
    .argument('<webhook_id>', 'the endpoint')
    .argument('<delivery_id>', 'the delivery, e.g. whd_…')
    .addOption(formOption())
    .action(
      callAndShow(
        signedIn,
        ({ api }, webhookId, deliveryId, flags) => api.webhooks[procedure].mutate({ form_id: flags.form, webhook_id: webhookId, delivery_id: deliveryId }),
        (delivery, ctx) => ctx.out.line(said(delivery)),
      ),
    );

const webhooksRetryCommand = () =>
  deliveryCommand(
    'retry',
    "One attempt now, with the same webhook-id, to the endpoint's URL now; the automatic retries stay as they were (needs a session; sends a held delivery)",
    'retryDelivery',
    (delivery) => `Retrying ${delivery.id} (${delivery.event_id}) now, to ${delivery.url}.`,
  );

const webhooksDiscardCommand = () =>
  deliveryCommand(
    'discard',
    'Never send a delivery: one waiting, held for a previous URL, or failed (needs a session; retry still can)',
    'discardDelivery',
    (delivery) => `Discarded ${delivery.id} (${delivery.event_id}): it will not be sent.`,
  );

const webhooksRecoverCommand = () =>
  new Command('recover')
    .description(
      "Send the form's events of a time range to the endpoint again, with their original webhook-ids, oldest first: " +
        'what it missed while disabled, or what its receiver lost (needs a session; at most 30 days back)',
    )
    .argument('<webhook_id>', 'the endpoint')
    .addOption(formOption())
    .requiredOption('--since <time>', 'from this time on: a duration back from now (2h, 3d) or an ISO 8601 time')
    .option('--until <time>', 'and before this time (default: now)')
    .option('--dry-run', 'count the events, send nothing')
    .action(
      action(async (ctx, webhookId, flags) => {
        const api = await sessionApi(ctx);
        const now = new Date();
        const until = flags.until === undefined ? now.toISOString() : timeOrAgo('--until', flags.until, now);
        const input = { form_id: flags.form, webhook_id: webhookId, until, dry_run: flags.dryRun === true };
        // One recover takes at most 10,000 events: go on from where each stops, to the end of the range.
        const total: Recovered = { queued: 0, already_waiting: 0, next_since: timeOrAgo('--since', flags.since, now), dry_run: input.dry_run };
        while (total.next_since !== null) {
          const step = await api.webhooks.recover.mutate({ ...input, since: total.next_since });
          total.queued += step.queued;
          total.already_waiting += step.already_waiting;
          total.next_since = input.dry_run ? null : step.next_since;
          if (input.dry_run && step.next_since !== null) ctx.out.note(`More than ${step.queued} events: counted those before ${step.next_since}.`);
        }
        ctx.out.result(total, (total) => {
          const waiting = total.already_waiting > 0 ? ` (${total.already_waiting} more already wait to be sent to it)` : '';
          const events = `${total.queued} event${total.queued === 1 ? '' : 's'}`;
          ctx.out.line(total.dry_run ? `${events} would be sent to ${webhookId}${waiting}.` : `Queued ${events} to ${webhookId}${waiting}.`);
        });
      }),
    );

export const webhooksCommand = () =>
  commandGroup(
    'webhooks',
    "Send a form's submissions, signed, to your own systems (with an API key or a session)",
    [
      webhooksCreateCommand(),
      webhooksListCommand(),
      webhooksGetCommand(),
      webhooksUpdateCommand(),
      webhooksDeleteCommand(),
      webhooksTestCommand(),
      webhooksRotateSecretCommand(),
      webhooksEndSecretCommand(),
      webhooksSecretCommand(),
      webhooksDeliveriesCommand(),
      webhooksRetryCommand(),
      webhooksDiscardCommand(),
      webhooksRecoverCommand(),
    ],
    [
      'lfk webhooks create --form form_… --url https://example.com/hooks/lfk',
      'lfk webhooks create --form form_… --kind slack --url https://hooks.slack.com/services/…',
      'lfk webhooks test wh_… --form form_…',
      'lfk webhooks deliveries wh_… --form form_…',
      'lfk webhooks retry wh_… whd_… --form form_…',
      'lfk webhooks discard wh_… whd_… --form form_…',
      'lfk webhooks update wh_… --form form_… --enable',
      'lfk webhooks recover wh_… --form form_… --since 2h',
    ],
  );
