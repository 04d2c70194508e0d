import { z } from 'zod';
import { variable } from '../settings/env-values.ts';
import { settingsSlice } from '../settings/settings-slice.ts';
import { DEFAULT_RATE_LIMITS, RATE_LIMIT_NAMES, type RateLimitConfig, type RateLimitName } from './rate-limits.ts';

/** The environment variable of each rate limit. */
export const RATE_LIMIT_ENV: Record<RateLimitName, string> = {
  anonymous_forms: 'LFK_RATE_LIMIT_ANONYMOUS_FORMS',
  login: 'LFK_RATE_LIMIT_LOGIN',
  login_failures: 'LFK_RATE_LIMIT_LOGIN_FAILURES',
  key_failures: 'LFK_RATE_LIMIT_KEY_FAILURES',
  browser_submissions: 'LFK_RATE_LIMIT_BROWSER_SUBMISSIONS',
  draft_saves: 'LFK_RATE_LIMIT_DRAFT_SAVES',
  password_resets: 'LFK_RATE_LIMIT_PASSWORD_RESETS',
  password_reset_emails: 'LFK_RATE_LIMIT_PASSWORD_RESET_EMAILS',
  invitations: 'LFK_RATE_LIMIT_INVITATIONS',
  device_code_guesses: 'LFK_RATE_LIMIT_DEVICE_CODE_GUESSES',
  auto_reply_recipients: 'LFK_RATE_LIMIT_AUTO_REPLY_RECIPIENTS',
  auto_reply_forms: 'LFK_RATE_LIMIT_AUTO_REPLY_FORMS',
  auto_reply_workspaces: 'LFK_RATE_LIMIT_AUTO_REPLY_WORKSPACES',
  auto_reply_accounts: 'LFK_RATE_LIMIT_AUTO_REPLY_ACCOUNTS',
  unasked_emails: 'LFK_RATE_LIMIT_UNASKED_EMAILS',
};

/** Every rate limit turned off, as environment variables: for tests and benchmarks that send the load themselves. */
export const RATE_LIMITS_OFF: Record<string, string> = Object.fromEntries(Object.values(RATE_LIMIT_ENV).map((name) => [name, 'off']));

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/** `10/1m`: ten requests per minute (units s, m, h, d); `off` turns the limit off. */
const rateLimit = (fallback: RateLimitConfig[RateLimitName]) =>
  variable(
    z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return fallback;
        if (value === 'off') return null;
        const match = /^(\d{1,9})\/(\d{1,9})([smhd])$/.exec(value);
        if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
          ctx.addIssue({ code: 'custom', message: 'Must be <count>/<duration> such as 10/1m (units s, m, h, d), or off.' });
          return z.NEVER;
        }
        return { capacity: Number(match[1]), windowMs: Number(match[2]) * UNIT_MS[match[3]!]! };
      }),
  );

/** `LFK_RATE_LIMIT_*`: one variable per limit. */
export const rateLimitSettings = settingsSlice({
  env: Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [RATE_LIMIT_ENV[name], rateLimit(DEFAULT_RATE_LIMITS[name])])),
  read: (env) => ({
    rateLimits: Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, env[RATE_LIMIT_ENV[name]]])) as RateLimitConfig,
  }),
});
