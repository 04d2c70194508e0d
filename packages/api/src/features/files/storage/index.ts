import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryStorage } from './directory-storage.ts';
import type { ObjectStorage } from './object-storage.ts';
import { S3Storage, type S3Settings } from './s3-storage.ts';

export type { ByteRange, ObjectStorage } from './object-storage.ts';
export { DirectoryStorage, syncFolder } from './directory-storage.ts';
export { S3_TIMEOUTS, type S3Settings, S3Storage } from './s3-storage.ts';
export { assertObjectKey, isObjectKey, isUploadKey, newObjectKey } from './object-key.ts';

/**
 * Where files' bytes go (`Config.objectStorage`): a folder (`<LFK_DATA_DIR>/files`; null: a
 * temporary one of this process, for `LFK_DATA_DIR=memory://`), or a bucket when `LFK_S3_BUCKET` is set.
 */
export type ObjectStorageSettings = { kind: 'directory'; root: string | null } | ({ kind: 's3' } & S3Settings);

/**
 * The storage the settings name, checked before it is handed out: the folder is made and writable,
 * the bucket reachable with these credentials. A misconfiguration throws here, at start, with a
 * message naming what to fix.
 */
export async function objectStorageFrom(settings: ObjectStorageSettings): Promise<ObjectStorage> {
  if (settings.kind === 's3') {
    const { kind: _, ...s3 } = settings;
    const storage = new S3Storage(s3);
    try {
      await storage.check();
    } catch (error) {
      await storage.close();
      throw error;
    }
    return storage;
  }
  const storage =
    settings.root === null ? new DirectoryStorage(await mkdtemp(join(tmpdir(), 'lfk-files-')), { removeOnClose: true }) : new DirectoryStorage(settings.root);
  await storage.check();
  return storage;
}
