import { ApiKeyCache } from '../../credentials/api-key-cache.ts';
import { defineFeature } from '../../feature.ts';
import { wholeNumber } from '../../settings/env-values.ts';
import { settingsSlice } from '../../settings/settings-slice.ts';
import { KeyUseRecorder } from './key-uses.ts';
import { apiKeysRouter } from './router.ts';
import { keyLifecycleSweep, keyUseBuffer, revocationListener } from './tasks.ts';

export const keysFeature = defineFeature({
  name: 'apiKeys',
  router: apiKeysRouter,
  settings: settingsSlice({
    env: { LFK_KEY_CACHE_TTL: wholeNumber(0, 3600, 30), LFK_KEY_CACHE_SIZE: wholeNumber(0, 1_000_000, 10_000) },
    read: (e) => ({
      /** Verified keys kept in memory: entries of each kind (valid, refused) and how long; 0 turns it off. */
      apiKeyCache: { maxEntries: e.LFK_KEY_CACHE_SIZE, ttlMs: e.LFK_KEY_CACHE_TTL * 1000 },
      /** How often API keys' `last_used_at`, address, user agent and usage counts are written, in milliseconds. */
      lastUsedFlushMs: 5000,
      /** How often expired keys are written down as revoked and expiry reminders queued, in milliseconds. */
      keyLifecycleSweepMs: 60_000,
    }),
  }),
  services: ({ services, log }, settings) => ({
    // One clock for the cache and the expiry it enforces.
    apiKeyCache: new ApiKeyCache({ ...settings.apiKeyCache, now: () => services.now().getTime() }),
    keyUses: new KeyUseRecorder(services.db, settings.lastUsedFlushMs, log),
  }),
  tasks: ({ services, log }, settings) => [
    revocationListener(services.db, services.apiKeyCache, log),
    keyUseBuffer(services.keyUses),
    keyLifecycleSweep(services.db, services.now, services.publicUrl, settings.keyLifecycleSweepMs, services.wakeMailer, log),
  ],
});
