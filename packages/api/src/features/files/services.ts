import type { ObjectStorage } from './storage/object-storage.ts';
import type { MalwareScanner } from './malware-scanner.ts';
import type { FilesSettings } from './settings.ts';
import type { FileLinks } from './links.ts';
import type { Log } from '../../log.ts';

/** What a request carries files in (a multipart body), as the context hands it to the submission. */
export type { UploadSource } from './upload-source.ts';
/** The services the files feature adds (built by composition/services.ts). */
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
