import { z } from 'zod';
import { parseSecretKey } from './credentials/secret-box.ts';
import type { EmailSenderSettings } from './infrastructure/email-sender.ts';
import { optionalHttpUrl, variable, wholeNumber } from './settings/env-values.ts';
import { settingsSlice } from './settings/settings-slice.ts';

const TEN_MINUTES_MS = 10 * 60_000;

/** Addresses of this machine that its browser reaches as `localhost`. */
const LOCAL_HOSTS = new Set(['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/** `LFK_SECRET_KEY`: 32 bytes as 64 hex digits or base64. */
const secretKey = variable(
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const key = parseSecretKey(value);
      if (key === null) {
        ctx.addIssue({ code: 'custom', message: 'Must be 32 bytes written as 64 hex digits or as base64 (openssl rand -hex 32).' });
        return z.NEVER;
      }
      return key;
    }),
);

/** What every feature shares: where people reach lfk, its clock and secret, sudo mode, and mail. */
export const kernelSettings = settingsSlice({
  env: {
    PORT: wholeNumber(0, 65535, 3000),
    HOST: variable(z.string().default('127.0.0.1')),
    LFK_PUBLIC_URL: optionalHttpUrl(),
    LFK_SECRET_KEY: secretKey,
    LFK_SUDO_WINDOW: wholeNumber(0, 86_400, 600),
    SMTP_URL: variable(z.url({ protocol: /^smtps?$/, error: 'Must be an smtp:// or smtps:// URL.' }).optional()),
    LFK_EMAIL_FROM: variable(z.string().max(300).default('lfk <no-reply@localhost>')),
  },
  read: (e) => {
    // A loopback or unspecified address is named `localhost`: browsers refuse an IP address as a
    // passkey's RP ID (the public URL's host), so the README's first run could make none.
    const displayHost = LOCAL_HOSTS.has(e.HOST) ? 'localhost' : e.HOST;
    return {
      port: e.PORT,
      host: e.HOST,
      /** Where people reach this server; the base of links and the origin cookies belong to. */
      publicUrl: (e.LFK_PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, ''),
      /**
       * False when `LFK_PUBLIC_URL` is unset and `publicUrl` was derived from `HOST` and `PORT` (local
       * development): the CSRF check then also takes the loopback name a request was addressed to.
       */
      publicUrlIsSet: e.LFK_PUBLIC_URL !== undefined,
      /**
       * `LFK_SECRET_KEY`, which seals stored secrets. Unset on the embedded database: the server keeps
       * one in its data directory (see apps/server's secret-key.ts). Required with `DATABASE_URL`.
       */
      secretKey: e.LFK_SECRET_KEY as Buffer | undefined,
      /** Sudo mode's window: how long after proving who they are a person may do what is dangerous. */
      sudoWindowMs: e.LFK_SUDO_WINDOW * 1000,
      /** Where email goes: an SMTP server, or (unset) the server log. */
      smtpUrl: e.SMTP_URL as string | undefined,
      emailFrom: e.LFK_EMAIL_FROM,
      /** The clock every time-dependent decision reads (tests set their own). */
      now: (): Date => new Date(),
      /** The email sender's timings (tests shorten them). */
      outbox: { pollMs: 1000, lockMs: 120_000, maxAttempts: 12, baseDelayMs: 2000, maxDelayMs: 15 * 60_000, batchSize: 10 } as EmailSenderSettings,
      /** How often expired idempotency records and refilled rate-limit buckets are swept. */
      sweeps: { idempotencyMs: TEN_MINUTES_MS, rateLimitsMs: TEN_MINUTES_MS },
    };
  },
});
