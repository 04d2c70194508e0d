import { defineFeature } from '../../feature.ts';
import { wholeNumber } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { emailVerificationsRouter } from './router.ts';

export const emailVerificationFeature = defineFeature({
  name: 'emailVerifications',
  router: emailVerificationsRouter,
  settings: settingsSlice({
    env: { LFK_VERIFY_RESEND_INTERVAL: wholeNumber(0, 86_400, 60) },
    read: (e) => ({ verifyResendIntervalMs: e.LFK_VERIFY_RESEND_INTERVAL * 1000 }),
  }),
  services: (_, settings) => ({ verifyResendIntervalMs: settings.verifyResendIntervalMs }),
});
