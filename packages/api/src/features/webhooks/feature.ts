import { WEBHOOK_IN_FLIGHT_PER_WORKSPACE } from '@lfk/vocabulary';
import { closer } from '../../infrastructure/background-task.ts';
import { DEFAULT_LONG_POLL_LIMITS, LongPolls } from '../../infrastructure/long-polls.ts';
import { Outbound } from '../../infrastructure/outbound-requests.ts';
import { defineFeature } from '../../feature.ts';
import { flag, wholeNumber } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { DEFAULT_DELIVERY_SETTINGS } from './delivery-job.ts';
import { queueFormStateChanged } from './events.ts';
import { FeedWatch } from './feed-watch.ts';
import { webhooksRouter } from './router.ts';
import { type WebhookWorkerSettings, webhookWorker } from './tasks.ts';

const webhooksSettings = settingsSlice({
  env: {
    LFK_WEBHOOK_ALLOW_PRIVATE: flag(false),
    LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE: wholeNumber(1, 100_000, WEBHOOK_IN_FLIGHT_PER_WORKSPACE),
    LFK_LONG_POLLS_PER_PERSON: wholeNumber(1, 10_000, DEFAULT_LONG_POLL_LIMITS.perPerson),
    LFK_LONG_POLLS_PER_WORKSPACE: wholeNumber(1, 100_000, DEFAULT_LONG_POLL_LIMITS.perWorkspace),
  },
  read: (e) => ({
    webhooks: {
      /** `LFK_WEBHOOK_ALLOW_PRIVATE`: webhooks may go to private addresses and `http://` (self-hosting, tests). */
      allowPrivate: e.LFK_WEBHOOK_ALLOW_PRIVATE,
      /** How long one request to a receiver may take; the outbound default when unset (tests shorten it). */
      timeoutMs: undefined as number | undefined,
    },
    /** The webhook worker: its queue's timings, and one workspace's deliveries in flight at once across every replica. */
    webhookWorker: {
      ...DEFAULT_DELIVERY_SETTINGS,
      pollMs: 1000,
      batchSize: 32,
      concurrency: 1024,
      perWorkspace: e.LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE,
    } as WebhookWorkerSettings,
    /** Long polls of the events feed held open at once in this process, per person and per workspace; past either, 429 `rate_limited`. */
    longPolls: { perPerson: e.LFK_LONG_POLLS_PER_PERSON, perWorkspace: e.LFK_LONG_POLLS_PER_WORKSPACE },
  }),
});

export const webhooksFeature = defineFeature({
  name: 'webhooks',
  router: webhooksRouter,
  settings: webhooksSettings,
  services: ({ services, log }, settings) => ({
    outbound: new Outbound({
      allowPrivate: settings.webhooks.allowPrivate,
      ...(settings.webhooks.timeoutMs ? { timeoutMs: settings.webhooks.timeoutMs } : {}),
    }),
    longPolls: new LongPolls(settings.longPolls),
    feedWatch: new FeedWatch(services.db, log),
    // Forms' closing and reopening send events; forms cannot import webhooks, which reads forms.
    formStateEvents: queueFormStateChanged,
  }),
  tasks: ({ services, log }, settings) => [
    closer('webhook connections', () => services.outbound.close()),
    webhookWorker(
      {
        db: services.db,
        secretBox: services.secretBox,
        outbound: services.outbound,
        log,
        publicUrl: services.publicUrl,
        wakeMailer: services.wakeMailer,
        metrics: services.metrics,
      },
      settings.webhookWorker,
    ),
  ],
});
