import type { KeyObject } from 'node:crypto';

/** The services secret scanning adds (built by its feature.ts). */
export interface SecretScanningServices {
  /** Public keys trusted to sign leak reports, by key identifier (`LFK_SECRET_SCANNING_KEYS`). */
  secretScanningKeys: ReadonlyMap<string, KeyObject>;
}
