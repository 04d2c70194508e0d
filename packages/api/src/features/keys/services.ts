import type { ApiKeyCache } from '../../credentials/api-key-cache.ts';
import type { KeyUseRecorder } from './key-uses.ts';

/** The services the keys feature adds (built by its feature.ts). */
export interface KeysServices {
  /** Verified keys by hash; a revocation anywhere drops its entry (see revocation-listener.ts). */
  apiKeyCache: ApiKeyCache;
  /** A key's uses, accepted and refused, written in batches (`lastUsedFlushMs`); the server starts and stops it. */
  keyUses: KeyUseRecorder;
}
