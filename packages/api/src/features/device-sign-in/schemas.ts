import { DEVICE_LOGIN_STATES, TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';
import { text, timestamp } from '../../common-schemas.ts';

/** Seconds a device waits between two polls, and a sign-in request lives. */
export const DEVICE_LOGIN_INTERVAL_SECONDS = 5;
export const DEVICE_LOGIN_TTL_SECONDS = 600;

/** Bidirectional overrides and isolates: they would let a name shown on the approval page read as another. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export const deviceLoginStartInput = z.strictObject({
  /** Shown on the approval page, so the person knows what they let in (e.g. "lfk CLI on build-box"). */
  device_name: text(TEXT_LIMITS.deviceName)
    .refine((name) => !BIDI_CONTROLS.test(name), 'Must not contain bidirectional control characters.')
    .optional(),
});

export const deviceLoginStarted = z
  .object({
    device_code: z.string(),
    user_code: z.string(),
    verification_url: z
      .string()
      .describe('The page where the person types `user_code`, signed in. No link carries the code: a code must be typed from the device that shows it.'),
    expires_in: z.number().int(),
    interval: z.number().int(),
  })
  .meta({ id: 'DeviceLoginStarted' });

/** The short code as the person reads it (`BCDF-GHJK`); case, spaces and dashes do not matter. */
export const userCodeParam = z.object({ user_code: z.string().max(32) });

export const deviceLogin = z
  .object({
    user_code: z.string(),
    device_name: z.string(),
    state: z.enum(DEVICE_LOGIN_STATES),
    requested_ip: z.string().nullable().describe('The address the sign-in was asked from: yours, if you started it.'),
    requested_user_agent: z.string().nullable().describe('The User-Agent of the device that asked.'),
    requested_device: z.string().nullable().describe('That User-Agent in words: the program ("lfk-cli 0.1.0"), or the browser and system.'),
    created_at: timestamp,
    expires_at: timestamp,
  })
  .meta({ id: 'DeviceLogin' });

export const deviceLoginTokenInput = z.strictObject({ device_code: z.string().max(100) });
