import type { IntakeSettings } from './intake.ts';

/** What the server's settings say of files. */
export interface FilesSettings extends IntakeSettings {
  /** `LFK_FILE_LINK_TTL`: seconds a signed download link lives, unless its workspace says less. */
  linkTtlSeconds: number;
  /** `LFK_UPLOAD_SWEEP_INTERVAL` in ms: the upload sweep runs every half of it (objects due for deletion, the orphan walk's next batch, the spool). */
  uploadSweepMs: number;
  /**
   * `LFK_UPLOAD_GRACE` in ms: a stored object no file row names is deleted once it is older than
   * this (a crash between storing and committing); a submission whose storing began more than half
   * of it ago is refused rather than committed.
   */
  uploadGraceMs: number;
  /** The spool folder is this process's own (a `memory://` data directory): removed when it stops. */
  temporarySpool?: boolean;
}
