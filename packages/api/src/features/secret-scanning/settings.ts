import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { variable } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';

/**
 * `LFK_SECRET_SCANNING_KEYS`: the public keys trusted to sign leak reports, as JSON — either an
 * object of key identifier → PEM public key, or GitHub's own document as
 * `https://api.github.com/meta/public_keys/secret_scanning` serves it
 * (`{ "public_keys": [{ "key_identifier", "key", … }] }`). Each must be an ECDSA P-256 key.
 */
const secretScanningKeys = variable(
  z
    .string()
    .max(100_000)
    .optional()
    .transform((value, ctx) => {
      const keys = new Map<string, KeyObject>();
      if (value === undefined) return keys;
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      };
      let json: unknown;
      try {
        json = JSON.parse(value);
      } catch {
        return fail('Must be JSON: {"<key identifier>": "<PEM public key>"}, or GitHub\'s {"public_keys": [...]} document.');
      }
      const listed = (json as { public_keys?: unknown })?.public_keys;
      const entries: [unknown, unknown][] = Array.isArray(listed)
        ? listed.map((k) => [(k as { key_identifier?: unknown })?.key_identifier, (k as { key?: unknown })?.key])
        : typeof json === 'object' && json !== null && !Array.isArray(json)
          ? Object.entries(json)
          : [];
      if (entries.length === 0) return fail('Must name at least one key.');
      for (const [id, pem] of entries) {
        if (typeof id !== 'string' || id === '' || typeof pem !== 'string') return fail('Each key needs an identifier and a PEM string.');
        try {
          const key = createPublicKey(pem);
          if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
            return fail(`Key ${id} is not an ECDSA P-256 public key.`);
          }
          keys.set(id, key);
        } catch {
          return fail(`Key ${id} is not a PEM public key.`);
        }
      }
      return keys;
    }),
);

export const secretScanningSettings = settingsSlice({
  env: { LFK_SECRET_SCANNING_KEYS: secretScanningKeys },
  /** Public keys trusted to sign leak reports, by identifier; empty: every report is refused. */
  read: (e) => ({ secretScanningKeys: e.LFK_SECRET_SCANNING_KEYS as ReadonlyMap<string, KeyObject> }),
});
