import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real S3-protocol server for tests, with one empty bucket, and the credentials it accepts. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`: use it with path-style addressing (`forcePathStyle`). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

/** A server's environment that stores files in `s3`, path-style, reached at `endpoint` (a hop in front of it, say). */
export function s3Env(s3: S3Server, endpoint = s3.endpoint): Record<string, string> {
  return {
    LFK_S3_ENDPOINT: endpoint,
    LFK_S3_BUCKET: s3.bucket,
    LFK_S3_REGION: s3.region,
    LFK_S3_ACCESS_KEY_ID: s3.accessKeyId,
    LFK_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    LFK_S3_FORCE_PATH_STYLE: 'true',
  };
}

/** The one key pair s3rver accepts; any other signature is refused (403 `SignatureDoesNotMatch`, or `InvalidAccessKeyId`). */
const S3RVER_KEY = 'S3RVER';

/**
 * Starts s3rver (npm `@20minutes/s3rver`) in a process of its own, on a free port of 127.0.0.1,
 * storing in a fresh temporary folder with one new bucket. It checks SigV4 signatures, serves
 * `Range` reads and pages `ListObjectsV2`. Its own process, so the memory a test measures is the
 * client's alone.
 */
export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'lfk-s3-'));
  const bucket = `lfk-test-${randomBytes(4).toString('hex')}`;
  const child = fork(join(import.meta.dirname, 's3-server-process.ts'), [directory, bucket], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message) => resolve((message as { port: number }).port));
      child.once('exit', (code, signal) => reject(new Error(`the test S3 server stopped before listening (${code ?? signal}): ${stderr}`)));
    });
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
