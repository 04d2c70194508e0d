import type { ObjectStorage } from './storage/object-storage.ts';
import type { MalwareScanner } from './malware-scanner.ts';
import type { FilesSettings } from './settings.ts';
import type { FileLinks } from './links.ts';
import type { Log } from '../../log.ts';

/** What a request carries files in (a multipart body), as the context hands it to the submission. */
export type { UploadSource } from './upload-source.ts';
/** What the caller opens for files before the services are built (storage is checked at start; tests share one). */
export interface FileResources {
  storage: ObjectStorage;
  scanner: MalwareScanner | null;
  /** Where uploads are spooled; `temporary`: this process's own folder, removed when it stops. */
  spool: { spoolDir: string; temporarySpool?: boolean };
}

/** The services the files feature adds (built by its feature.ts). */
export interface FilesServices {
  files: {
    storage: ObjectStorage;
    /** ClamAV's daemon when `LFK_CLAMD_URL` is set; null scans nothing. */
    scanner: MalwareScanner | null;
    links: FileLinks;
    settings: FilesSettings;
    /** Where a storage or scanner failure is reported (the request only learns it was a 503). */
    log: Log;
  };
}
