import { closer } from '../../infrastructure/background-task.ts';
import { defineFeature } from '../../feature.ts';
import { httpUrl, wholeNumber } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { CAPTCHA_TIMEOUT_MS, CAPTCHA_VERIFY_URLS, CaptchaVerifier } from './captcha.ts';
import { FormCache } from './form-cache.ts';
import { formsRouter } from './router.ts';
import { formChangeListener } from './tasks.ts';

export const formsFeature = defineFeature({
  name: 'forms',
  router: formsRouter,
  settings: settingsSlice({
    env: {
      LFK_FORM_CACHE_TTL: wholeNumber(0, 3600, 30),
      LFK_FORM_CACHE_SIZE: wholeNumber(0, 1_000_000, 10_000),
      LFK_TURNSTILE_VERIFY_URL: httpUrl(CAPTCHA_VERIFY_URLS.turnstile),
      LFK_HCAPTCHA_VERIFY_URL: httpUrl(CAPTCHA_VERIFY_URLS.hcaptcha),
      LFK_RECAPTCHA_VERIFY_URL: httpUrl(CAPTCHA_VERIFY_URLS.recaptcha),
      LFK_CAPTCHA_TIMEOUT: wholeNumber(1, 60, CAPTCHA_TIMEOUT_MS / 1000),
    },
    read: (e) => ({
      /** Forms kept in memory for their submissions: how many and how long; 0 turns it off. */
      formCache: { maxEntries: e.LFK_FORM_CACHE_SIZE, ttlMs: e.LFK_FORM_CACHE_TTL * 1000 },
      /** Captcha providers' siteverify URLs and how long each may take. */
      captcha: {
        verifyUrls: { turnstile: e.LFK_TURNSTILE_VERIFY_URL, hcaptcha: e.LFK_HCAPTCHA_VERIFY_URL, recaptcha: e.LFK_RECAPTCHA_VERIFY_URL },
        timeoutMs: e.LFK_CAPTCHA_TIMEOUT * 1000,
      },
    }),
  }),
  services: ({ services, log }, settings) => ({
    formCache: new FormCache({ ...settings.formCache, exact: services.db.engine === 'pglite', now: () => services.now().getTime() }),
    captcha: new CaptchaVerifier(settings.captcha, log),
  }),
  tasks: ({ services, log }) => [formChangeListener(services.db, services.formCache, log), closer('captcha connections', () => services.captcha.close())],
});
