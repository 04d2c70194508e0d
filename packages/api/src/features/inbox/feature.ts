import { defineFeature } from '../../feature.ts';
import { wholeNumber } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { DEFAULT_EXPORTS_PER_PERSON, exportLimit } from './export.ts';
import { RefusedOrigins } from './refused-origins.ts';
import { inboxRouter } from './router.ts';
import { retentionSweep } from './tasks.ts';

export const inboxFeature = defineFeature({
  // The wire names one entry of the inbox a submission.
  name: 'submissions',
  router: inboxRouter,
  settings: settingsSlice({
    env: {
      LFK_RETENTION_SWEEP_INTERVAL: wholeNumber(1, 86_400, 600),
      LFK_EXPORTS_PER_PERSON: wholeNumber(1, 1000, DEFAULT_EXPORTS_PER_PERSON),
    },
    read: (e) => ({
      /** How often submissions past their form's retention, and spam past 30 days, are deleted. */
      retentionSweepMs: e.LFK_RETENTION_SWEEP_INTERVAL * 1000,
      /** Exports one person may stream at once from this process; past it, 429 `rate_limited`. */
      exportsPerPerson: e.LFK_EXPORTS_PER_PERSON,
    }),
  }),
  // After forms: the refused origins are forgotten with the form.
  services: ({ services }, settings) => ({
    refusedOrigins: new RefusedOrigins(services.db, services.background, services.formCache, services.now),
    exports: exportLimit(settings.exportsPerPerson),
  }),
  tasks: ({ services, log }, settings) => [retentionSweep(services.db, services.now, settings.retentionSweepMs, log)],
});
