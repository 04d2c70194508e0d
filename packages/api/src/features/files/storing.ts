import { randomBytes } from 'node:crypto';
import { type Database, newId, ObjectDeletion } from '@lfk/db';
import type { FileStatus } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import { ApiError } from '../../errors.ts';
import { ScannerUnavailable } from './malware-scanner.ts';
import type { Log } from '../../log.ts';
import type { SpooledFile } from './intake.ts';
import type { FilesServices } from './services.ts';

/** A received file put into object storage, not yet kept: its submission's transaction keeps it (`keepUploads`). */
export interface StoredUpload extends SpooledFile {
  id: string;
  objectKey: string;
  status: FileStatus;
  malwareSignature: string | null;
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

/** An object key: random, so it says nothing of the file, its form or its workspace. */
const objectKey = () => randomBytes(16).toString('hex');

/**
 * Scans the spooled files (when a scanner is set) and puts them into object storage. Their
 * deletion is scheduled first, in its own committed statement, due when half the upload sweep's
 * interval has passed: whatever happens next — a refused write, a lost connection, a crash — the
 * sweep deletes them unless their submission's transaction takes the schedule back in time.
 */
export async function storeUploads(services: FilesServices & { db: Database; now(): Date }, files: readonly SpooledFile[], log: Log): Promise<StoredUpload[]> {
  if (files.length === 0) return [];
  const { storage, scanner, settings } = services.files;
  const stored: StoredUpload[] = [];
  for (const file of files) {
    const verdict = scanner ? await scanned(scanner, file.path, log) : { infected: false as const };
    stored.push({
      ...file,
      id: newId('file'),
      objectKey: objectKey(),
      status: verdict.infected ? 'quarantined' : 'stored',
      malwareSignature: verdict.infected ? verdict.signature.slice(0, 200) : null,
    });
  }
  const deleteAfter = new Date(services.now().getTime() + settings.uploadSweepMs / 2);
  await services.db
    .fork()
    .getRepository(ObjectDeletion)
    .schedule(
      stored.map((f) => f.objectKey),
      deleteAfter,
    );
  try {
    for (const file of stored) await storage.putFile(file.objectKey, file.path, file.size, file.contentType);
  } catch (err) {
    log.error({ err, storage: storage.kind }, 'could not store a submitted file');
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
 * Keeps the uploads' objects, in the submission's transaction: takes back their scheduled deletion.
 * If the sweep took any first (storing outlasted its grace), nothing may point at them: refused.
 */
export async function keepUploads(em: EntityManager, stored: readonly StoredUpload[]): Promise<void> {
  if (stored.length === 0) return;
  const kept = await em.getRepository(ObjectDeletion).takeBack(stored.map((f) => f.objectKey));
  if (kept !== stored.length) throw storageUnavailable('Storing the files took too long. Send the submission again.');
}

/**
 * The objects of uploads that were stored but not kept (a replayed request, a refused write):
 * deleted now rather than at the sweep, which remains the backstop if this fails.
 */
export async function dropUploads(services: FilesServices & { db: Database }, stored: readonly StoredUpload[], log: Log): Promise<void> {
  if (stored.length === 0) return;
  try {
    for (const file of stored) await services.files.storage.delete(file.objectKey);
    await services.db
      .fork()
      .getRepository(ObjectDeletion)
      .takeBack(stored.map((f) => f.objectKey));
  } catch (err) {
    log.warn({ err }, 'could not delete the files of a submission that was not kept; the upload sweep will');
  }
}
