import { type Database, newId, ObjectDeletion } from '@lfk/db';
import type { FileStatus } from '@lfk/vocabulary';
import { ApiError } from '../../errors.ts';
import { ScannerUnavailable } from './malware-scanner.ts';
import type { Log } from '../../log.ts';
import type { SpooledFile } from './intake.ts';
import type { FilesServices } from './services.ts';
import { newObjectKey } from './storage/object-key.ts';

/** A received file put into object storage, not yet kept: its submission's transaction keeps it (`keepUploads`). */
export interface StoredUpload extends SpooledFile {
  id: string;
  objectKey: string;
  status: FileStatus;
  malwareSignature: string | null;
  /** When its storing began (the services' clock): its submission must commit within half `LFK_UPLOAD_GRACE` of it. */
  storingSince: Date;
}

/** How long a client is asked to wait before trying again while object storage does not answer. */
const STORAGE_RETRY_AFTER_S = 5;

/**
 * Object storage down, refusing or too slow, on any request that needs it (an upload, a download, a
 * signed link): one answer, `503 storage_unavailable` with `Retry-After`.
 */
export function storageUnavailable(message?: string): ApiError {
  return new ApiError('storage_unavailable', { ...(message ? { message } : {}), headers: { 'retry-after': String(STORAGE_RETRY_AFTER_S) } });
}

/**
 * Scans the spooled files (when a scanner is set) and puts them into object storage; the
 * submission's transaction then records them, its one commit (`keepUploads`). Nothing is written
 * to the database first: an object whose submission never commits (a crash in between) is found by
 * the orphan sweep, which deletes what no file row names once it is older than `LFK_UPLOAD_GRACE`.
 * A put that fails leaves what it may have stored scheduled for deletion at once (the store just
 * failed: asking it again now would hold the answer up to another deadline).
 */
export async function storeUploads(services: FilesServices & { db: Database; now(): Date }, files: readonly SpooledFile[], log: Log): Promise<StoredUpload[]> {
  if (files.length === 0) return [];
  const { storage, scanner } = services.files;
  const verdicts: Awaited<ReturnType<typeof scanned>>[] = [];
  for (const file of files) verdicts.push(scanner ? await scanned(scanner, file.path, log) : { infected: false as const });
  // Read before the first put: every object is stored at or after it, by any sane clock, so the
  // orphan sweep (which ages objects by when they were stored) never takes one this upload may still commit.
  const storingSince = services.now();
  const stored: StoredUpload[] = files.map((file, i) => {
    const verdict = verdicts[i]!;
    return {
      ...file,
      id: newId('file'),
      objectKey: newObjectKey(),
      status: verdict.infected ? 'quarantined' : 'stored',
      malwareSignature: verdict.infected ? verdict.signature.slice(0, 200) : null,
      storingSince,
    };
  });
  const tried: string[] = [];
  try {
    for (const file of stored) {
      tried.push(file.objectKey);
      await storage.putFile(file.objectKey, file.path, file.size, file.contentType);
    }
  } catch (err) {
    log.error({ err, storage: storage.kind }, 'could not store a submitted file');
    await scheduleDeletion(services, tried, log);
    throw storageUnavailable();
  }
  return stored;
}

async function scanned(scanner: NonNullable<FilesServices['files']['scanner']>, path: string, log: Log) {
  try {
    return await scanner.scan(path);
  } catch (err) {
    if (!(err instanceof ScannerUnavailable)) throw err;
    log.error({ err }, 'the malware scanner did not answer');
    throw new ApiError('scanner_unavailable', { headers: { 'retry-after': '5' } });
  }
}

/**
 * Checks, in the submission's transaction, just before it commits, that storing its files began
 * less than half `LFK_UPLOAD_GRACE` ago: past that, the orphan sweep of another replica (whose
 * clock, or the store's, may differ by up to that half) could take their objects for orphans, so
 * the write is refused and its objects dropped rather than point at one that may be gone.
 */
export function keepUploads(stored: readonly StoredUpload[], now: Date, graceMs: number): void {
  if (stored.some((file) => now.getTime() - file.storingSince.getTime() > graceMs / 2)) {
    throw storageUnavailable('Storing the files took too long. Send the submission again.');
  }
}

/**
 * The objects of uploads stored but certainly not kept (a replayed request, a write refused in its
 * transaction): deleted now; those whose deletion fails are scheduled (`object_deletions`, due at
 * once) for the upload sweep, and if even that fails, the orphan sweep finds them.
 */
export async function dropUploads(services: FilesServices & { db: Database; now(): Date }, stored: readonly StoredUpload[], log: Log): Promise<void> {
  const left: string[] = [];
  for (const file of stored) {
    try {
      await services.files.storage.delete(file.objectKey);
    } catch (err) {
      log.warn({ err, storage: services.files.storage.kind }, 'could not delete the file of a submission that was not kept; the upload sweep will');
      left.push(file.objectKey);
    }
  }
  await scheduleDeletion(services, left, log);
}

/** Schedules these objects' deletion at once (the upload sweep's next run); a failure leaves them to the orphan sweep. */
async function scheduleDeletion(services: { db: Database; now(): Date }, objectKeys: string[], log: Log): Promise<void> {
  if (objectKeys.length === 0) return;
  try {
    await services.db.fork().getRepository(ObjectDeletion).schedule(objectKeys, services.now());
  } catch (err) {
    log.warn({ err }, 'could not schedule the deletion of stored files no submission holds; the orphan sweep will delete them');
  }
}
