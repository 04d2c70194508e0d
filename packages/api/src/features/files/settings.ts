import type { IntakeSettings } from './intake.ts';

/** What the server's settings say of files. */
export interface FilesSettings extends IntakeSettings {
  /** `LFK_FILE_LINK_TTL`: seconds a signed download link lives, unless its workspace says less. */
  linkTtlSeconds: number;
  /** `LFK_UPLOAD_SWEEP_INTERVAL` in ms: an abandoned upload's objects are gone within it. */
  uploadSweepMs: number;
  /** The spool folder is this process's own (a `memory://` data directory): removed when it stops. */
  temporarySpool?: boolean;
}
