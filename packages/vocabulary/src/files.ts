/** A stored file is kept as it came, or quarantined: its scan found malware, so nobody may download it. */
export const FILE_STATUSES = ['stored', 'quarantined'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

const MiB = 1024 * 1024;

/**
 * A `file` field's limits. `max_size` defaults to `defaultMaxSize` (never above the server's
 * `LFK_MAX_FILE_SIZE`), `max_files` to 1, or to `defaultMaxFiles` for a field that takes several.
 */
export const FILE_FIELD_LIMITS = {
  defaultMaxSize: 10 * MiB,
  /** The most any server may allow for one file (`LFK_MAX_FILE_SIZE`): objects stay under 2 GiB. */
  maxSize: 1024 * MiB,
  defaultMaxFiles: 10,
  maxFiles: 20,
  /** What one submission's files may weigh together unless `LFK_MAX_SUBMISSION_SIZE` says otherwise. */
  defaultSubmissionSize: 25 * MiB,
  /** MIME types (or `type/*`) one field may accept. */
  maxAccept: 50,
} as const;

/** How long a signed download link lives: `LFK_FILE_LINK_TTL` and a workspace's `file_link_ttl`, in seconds. */
export const FILE_LINK_TTL = { default: 7 * 24 * 3600, min: 60, max: 30 * 24 * 3600 } as const;

/** The longest file name kept (in characters): a longer one is cut, keeping its extension. */
export const FILE_NAME_MAX = 255;

/** A size as people read it: `512 B`, `3.4 KiB`, `10.0 MiB` (binary units, as the limits are set). */
export function describeBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
