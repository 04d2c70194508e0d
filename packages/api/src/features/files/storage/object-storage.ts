import type { Readable } from 'node:stream';

/** A byte range of an object, both ends inclusive (as HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where submitted files' bytes are kept: the data directory by default, or any S3-compatible
 * bucket (`LFK_S3_*`). Objects are private and named by opaque keys that say nothing of the file,
 * its form or its workspace. The database says which objects exist for which submission; storage
 * only holds bytes.
 */
export interface ObjectStorage {
  /** `directory` or `s3`: for logs, metrics and the benchmark. */
  readonly kind: 'directory' | 's3';
  /**
   * Whether `putFile` takes the file as it is, its bytes already written down by its writer (the
   * directory backend: it names the file as the object by a rename, and a crash must never leave a
   * named but torn object). The spool then flushes each file as it closes it, and nothing opens it
   * again to do so; a backend that copies the bytes elsewhere (S3) spares the spool that flush.
   */
  readonly takesFlushedFiles: boolean;
  /**
   * Stores the finished local file at `path` (`size` bytes) as `key`. The file is the caller's
   * spool file: the storage may move it (the directory backend renames it, without copying), so the
   * caller removes `path` afterwards whether it is still there or not.
   */
  putFile(key: string, path: string, size: number, contentType: string): Promise<void>;
  /** The object's bytes, all of them or `range`; null when there is no object `key`. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Deletes `key`; deleting an object that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * The keys stored, in ascending order (bytewise, as S3 lists them), those after `after` only when
   * given: a walk can stop anywhere and go on later from the last key it saw (the orphan sweep's
   * batches). Keys that are not lfk's are left out.
   */
  list(after?: string): AsyncIterable<string>;
  /**
   * When the object `key` was stored (at or after its `putFile` began, by the store's clock); null
   * when there is no such object. What the orphan sweep ages an object by.
   */
  storedAt(key: string): Promise<Date | null>;
  /** Releases connections and handles. */
  close(): Promise<void>;
}
