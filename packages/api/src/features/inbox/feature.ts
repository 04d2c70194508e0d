import { defineFeature } from '../../feature.ts';
import { closer } from '../../infrastructure/background-task.ts';
import { optionalHttpUrl, optionalText, wholeNumber } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { DEFAULT_EXPORTS_PER_PERSON, exportLimit } from './export.ts';
import { RefusedOrigins } from './refused-origins.ts';
import { inboxRouter } from './router.ts';
import { Rspamd } from './rspamd.ts';
import { MessageSightings } from './sightings.ts';
import { SpamLearnings } from './spam-learnings.ts';
import { retentionSweep } from './tasks.ts';

export const inboxFeature = defineFeature({
  // The wire names one entry of the inbox a submission.
  name: 'submissions',
  router: inboxRouter,
  settings: settingsSlice({
    env: {
      LFK_RETENTION_SWEEP_INTERVAL: wholeNumber(1, 86_400, 600),
      LFK_EXPORTS_PER_PERSON: wholeNumber(1, 1000, DEFAULT_EXPORTS_PER_PERSON),
      LFK_SPAM_MARKS_PER_HOUR: wholeNumber(0, 100_000, 200),
      LFK_RSPAMD_URL: optionalHttpUrl(),
      LFK_RSPAMD_PASSWORD: optionalText(200),
      LFK_RSPAMD_TIMEOUT: wholeNumber(1, 30, 2),
    },
    read: (e) => ({
      /** How often submissions past their form's retention, and spam past 30 days, are deleted. */
      retentionSweepMs: e.LFK_RETENTION_SWEEP_INTERVAL * 1000,
      /** Exports one person may stream at once from this process; past it, 429 `rate_limited`. */
      exportsPerPerson: e.LFK_EXPORTS_PER_PERSON,
      /** Marks ("spam", "not spam") that teach a workspace's content filter in an hour; past it they still mark. */
      spamMarksPerHour: e.LFK_SPAM_MARKS_PER_HOUR,
      /** rspamd's controller, asked about every submission and told of every mark; unset: lfk's own filter alone. */
      rspamd: e.LFK_RSPAMD_URL ? { url: e.LFK_RSPAMD_URL, password: e.LFK_RSPAMD_PASSWORD, timeoutMs: e.LFK_RSPAMD_TIMEOUT * 1000 } : null,
    }),
  }),
  // After forms: the refused origins are forgotten with the form.
  services: ({ services, log }, settings) => ({
    refusedOrigins: new RefusedOrigins(services.db, services.background, services.formCache, services.now),
    exports: exportLimit(settings.exportsPerPerson),
    spamLearnings: new SpamLearnings(services.db, services.now, settings.spamMarksPerHour),
    messageSightings: new MessageSightings(),
    rspamd: settings.rspamd ? new Rspamd(settings.rspamd, log) : null,
  }),
  tasks: ({ services, log }, settings) => [
    retentionSweep(services.db, services.now, settings.retentionSweepMs, log),
    closer('rspamd connections', () => services.rspamd?.close()),
  ],
});
