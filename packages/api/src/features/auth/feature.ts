import { defineFeature } from '../../feature.ts';
import { flag } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { authRouter } from './router.ts';

export const authFeature = defineFeature({
  name: 'auth',
  router: authRouter,
  settings: settingsSlice({ env: { LFK_ALLOW_SIGNUP: flag(true) }, read: (e) => ({ allowSignup: e.LFK_ALLOW_SIGNUP }) }),
  services: (_, settings) => ({ allowSignup: settings.allowSignup }),
});
