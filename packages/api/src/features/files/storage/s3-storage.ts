import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { assertObjectKey, isObjectKey } from './object-key.ts';
import type { ByteRange, ObjectStorage } from './object-storage.ts';

/** An S3-compatible bucket (`LFK_S3_*`). */
export interface S3Settings {
  bucket: string;
  region: string;
  /** Another S3-compatible store (MinIO, R2, Ceph…); unset: AWS itself. */
  endpoint: string | undefined;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`: what most stores other than AWS need. */
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own chain (`AWS_*` variables, a profile, the instance's or the task's role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /**
   * How long the store may take to connect, and for one call in all (every retry included; a
   * download's body streams after it, and an upload's bytes are sent, bounded by socket idleness
   * only, the same length). The server derives them
   * from its inbound idle timeout, so a request waiting on the store gets its 503 before its own
   * connection is cut.
   */
  deadlines?: { connectMs: number; totalMs: number } | undefined;
}

/** Without the server's deadlines: to connect, and for one call (half lfk's 60 s idle timeout, which carries the request). */
export const S3_TIMEOUTS = { connectMs: 5_000, totalMs: 30_000 } as const;
/** Attempts of each request (5xx, throttling, a dropped connection): the SDK's, and lfk's own for uploads. */
const MAX_ATTEMPTS = 3;
/** An upload's second attempt waits this long, its third twice as long. */
const RETRY_BASE_MS = 100;

/**
 * An upload worth sending again: what the SDK would retry (from its own classification), but not a
 * store that stopped answering: the request's deadline holds one attempt, and a hung store would
 * hold three.
 */
const worthSendingAgain = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  // The SDK names a dropped connection (ECONNRESET) a TimeoutError too; its own deadlines have no code.
  const code = (error as { code?: unknown }).code;
  if ((error.name === 'TimeoutError' && code === undefined) || code === 'ETIMEDOUT') return false;
  const sdkError = error as Parameters<typeof isTransientError>[0];
  return isTransientError(sdkError) || isThrottlingError(sdkError) || isServerError(sdkError);
};

/**
 * Objects in a bucket, through the official AWS SDK. Objects are private (no ACL is ever sent; the
 * bucket's own policy applies), uploaded from the spool file as a stream with its length, and read
 * as a stream, never whole in memory.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  readonly takesFlushedFiles = false;
  readonly #client: S3Client;
  readonly #settings: S3Settings;
  readonly #totalMs: number;

  constructor(settings: S3Settings) {
    this.#settings = settings;
    const deadlines = settings.deadlines ?? S3_TIMEOUTS;
    this.#totalMs = deadlines.totalMs;
    this.#client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      maxAttempts: MAX_ATTEMPTS,
      // Checksums only where S3 requires them: the SDK's default (a CRC trailer on every upload, in
      // aws-chunked encoding) is refused by several S3-compatible stores; TLS guards the bytes in transit.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      requestHandler: { connectionTimeout: deadlines.connectMs, socketTimeout: deadlines.totalMs },
    });
  }

  /**
   * Sends one command within the call's deadline, its retries included (the SDK's socket timeout
   * alone would allow one per attempt). The deadline ends with the answer: a body still streaming
   * after it (a download) is never cut by it.
   */
  async #within<T>(call: (options: { abortSignal: AbortSignal }) => Promise<T>): Promise<T> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`no answer within ${this.#totalMs} ms`)), this.#totalMs);
    try {
      return await call({ abortSignal: deadline.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Where the bucket is, for messages: never the credentials. */
  get #where(): string {
    return `S3 bucket "${this.#settings.bucket}" ${this.#settings.endpoint ? `at ${this.#settings.endpoint}` : `in AWS region ${this.#settings.region}`}`;
  }

  /** Confirms the bucket is there and these credentials may use it: at start, so a misconfiguration stops the server with a message. */
  async check(): Promise<void> {
    try {
      await this.#within((options) => this.#client.send(new HeadBucketCommand({ Bucket: this.#settings.bucket }), options));
    } catch (error) {
      throw new Error(`${this.#where} cannot be used: ${explain(error)}`);
    }
  }

  async putFile(key: string, path: string, size: number, contentType: string): Promise<void> {
    assertObjectKey(key);
    // One handle for every attempt: the file cannot go from under a retry (the caller removes it once this returns).
    const file = await open(path);
    try {
      const found = await file.stat();
      if (found.size !== size) throw new Error(`the file to store as ${key} has ${found.size} bytes, not ${size}`);
      // The SDK retries no call whose body is a stream (it cannot replay one); lfk can, from the
      // spool file: a put written to a kept-alive connection the store had closed, or answered 5xx.
      for (let attempt = 1; ; attempt++) {
        // Not destroyed after an attempt: that would close the handle the next one reads (closed below).
        const body = file.createReadStream({ start: 0, autoClose: false });
        try {
          // Bounded by socket idleness, not in all: a large file to a slow store is legitimate while its bytes move.
          await this.#client.send(new PutObjectCommand({ Bucket: this.#settings.bucket, Key: key, Body: body, ContentLength: size, ContentType: contentType }));
          return;
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !worthSendingAgain(error)) throw error;
        }
        await sleep(RETRY_BASE_MS * 2 ** (attempt - 1));
      }
    } finally {
      await file.close();
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    assertObjectKey(key);
    try {
      const answer = await this.#within((options) =>
        this.#client.send(
          new GetObjectCommand({ Bucket: this.#settings.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
          options,
        ),
      );
      // In Node the body is the response itself, a Readable (an empty object may come without one).
      return answer.Body instanceof Readable ? answer.Body : Readable.from([]);
    } catch (error) {
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    // S3 answers 204 whether or not the key was there.
    await this.#within((options) => this.#client.send(new DeleteObjectCommand({ Bucket: this.#settings.bucket, Key: key }), options));
  }

  /** `ListObjectsV2`, page by page (up to 1,000 keys each, from `StartAfter`): a walk that stops early asks for no more pages. */
  async *list(after?: string): AsyncIterable<string> {
    const pages = paginateListObjectsV2({ client: this.#client }, { Bucket: this.#settings.bucket, ...(after === undefined ? {} : { StartAfter: after }) });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) if (object.Key !== undefined && isObjectKey(object.Key)) yield object.Key;
    }
  }

  /** `HeadObject`'s `LastModified`: when the store took the object, by its clock (to the second). */
  async storedAt(key: string): Promise<Date | null> {
    assertObjectKey(key);
    try {
      const answer = await this.#within((options) => this.#client.send(new HeadObjectCommand({ Bucket: this.#settings.bucket, Key: key }), options));
      return answer.LastModified ?? null;
    } catch (error) {
      // HEAD has no body, so a missing key is the status alone (NotFound), not NoSuchKey.
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }
}

/** What went wrong reaching the bucket, in words an operator can act on. */
function explain(error: unknown): string {
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode;
    if (status === 404) return 'no such bucket (404); create it, or correct LFK_S3_BUCKET';
    if (status === 403) return 'access denied (403); check LFK_S3_ACCESS_KEY_ID and LFK_S3_SECRET_ACCESS_KEY, and that they may use this bucket';
    if (status === 301 || status === 400) return `the store refused the request (${status} ${error.name}); check LFK_S3_REGION and LFK_S3_FORCE_PATH_STYLE`;
    return `${error.name} (${status ?? 'no status'}): ${error.message}`;
  }
  const cause = error as { name?: string; code?: string; message?: string };
  if (cause.name === 'CredentialsProviderError') {
    return 'no credentials; set LFK_S3_ACCESS_KEY_ID and LFK_S3_SECRET_ACCESS_KEY, or give the process AWS credentials (a role, AWS_* variables, a profile)';
  }
  return `it could not be reached (${cause.code ?? cause.name ?? 'error'}: ${cause.message ?? String(error)}); check LFK_S3_ENDPOINT`;
}
