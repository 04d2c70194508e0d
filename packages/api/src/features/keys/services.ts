import type { KeyUseRecorder } from './key-uses.ts';

/** The services the keys feature adds (built by composition/services.ts). */
export interface KeysServices {
  /** A key's uses, accepted and refused, written in batches (`lastUsedFlushMs`); the server starts and stops it. */
  keyUses: KeyUseRecorder;
}
