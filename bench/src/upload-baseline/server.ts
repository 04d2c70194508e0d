/**
 * Scenario 17's baseline: an upload written by hand, the least a server can do to take the same
 * multipart/form-data upload over HTTP and put its file's bytes into the same storage as durably
 * as lfk does. node:http, the multipart parser lfk's own uses (`@fastify/busboy`), and then:
 *
 * - `directory` (UPLOAD_BASELINE_ROOT): the file part streamed into a new file of that folder,
 *   fsynced, and the folder fsynced, before the 201: the bytes and the name are on disk, as lfk's
 *   are when it answers. No spool, no rename.
 * - `s3`: the file part streamed into a spool file (the part has no length, and S3 takes none
 *   without one; holding it in memory would cost what lfk may not), then put into the bucket by
 *   the AWS SDK with the client settings lfk's own uses. With UPLOAD_BASELINE_S3_MEMORY=true the
 *   part is held whole in memory instead: a reference for what the spool costs, never the target.
 *
 * It checks no key, no form, no limit but the size, hashes nothing, writes no row. Never shipped.
 *
 * With UPLOAD_BASELINE_RAW=true it is scenario 20's raw ceiling instead: the request's whole body,
 * multipart and all, written into a new file of UPLOAD_BASELINE_ROOT and fsynced before the 201;
 * not parsed, and the folder not fsynced.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import { syncFolder } from '@lfk/api';
import type { FromServer, ToServer } from '../protocol.ts';

const env = process.env;
const MAX_FILE_SIZE = Number(env.UPLOAD_BASELINE_MAX_FILE_SIZE ?? 25 * 2 ** 20);
const root = env.UPLOAD_BASELINE_ROOT!;
const s3 = env.UPLOAD_BASELINE_S3_BUCKET
  ? {
      bucket: env.UPLOAD_BASELINE_S3_BUCKET,
      inMemory: env.UPLOAD_BASELINE_S3_MEMORY === 'true',
      client: new S3Client({
        region: 'us-east-1',
        endpoint: env.UPLOAD_BASELINE_S3_ENDPOINT!,
        forcePathStyle: true,
        credentials: { accessKeyId: env.UPLOAD_BASELINE_S3_ACCESS_KEY_ID!, secretAccessKey: env.UPLOAD_BASELINE_S3_SECRET_ACCESS_KEY! },
        requestChecksumCalculation: 'WHEN_REQUIRED',
      }),
    }
  : null;

const raw = env.UPLOAD_BASELINE_RAW === 'true';

const newName = () => randomBytes(16).toString('hex');

/** The part's bytes into a new file, written down (fsync, `flush`) before it is closed when `durable`; its size. */
async function intoFile(file: Readable, path: string, durable: boolean): Promise<number> {
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600, flush: durable });
  await pipeline(file, out);
  if ((file as { truncated?: boolean }).truncated) throw new Error('the file is too large');
  return out.bytesWritten;
}

async function store(file: Readable): Promise<void> {
  const key = newName();
  if (!s3) {
    await intoFile(file, join(root, key), true);
    await syncFolder(root);
    return;
  }
  if (s3.inMemory) {
    const chunks: Buffer[] = [];
    for await (const chunk of file) chunks.push(chunk as Buffer);
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: Buffer.concat(chunks), ContentType: 'application/octet-stream' }));
    return;
  }
  const spool = join(root, `${key}.part`);
  try {
    // A spool for S3 needs no fsync: the bucket is what keeps the bytes.
    const size = await intoFile(file, spool, false);
    const body = createReadStream(spool);
    try {
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentLength: size, ContentType: 'application/octet-stream' }));
    } finally {
      body.destroy();
    }
  } finally {
    await unlink(spool).catch(() => undefined);
  }
}

/** The request's one file part, stored; resolves once the body has been read to its end and the file stored. */
function receive(request: IncomingMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    const parser = Busboy({ headers: request.headers as BusboyHeaders, limits: { fileSize: MAX_FILE_SIZE + 1, files: 1 } });
    let stored: Promise<void> | null = null;
    parser.on('file', (_field, file) => {
      stored = store(file);
      stored.catch(() => undefined);
    });
    parser.on('error', reject);
    parser.on('finish', () => {
      if (!stored) reject(new Error('no file part'));
      else stored.then(resolve, reject);
    });
    request.pipe(parser);
  });
}

/** The raw ceiling: the body into a new file, fsynced (`flush`) as it closes. */
async function writeRaw(request: IncomingMessage): Promise<void> {
  await pipeline(request, createWriteStream(join(root, newName()), { flags: 'wx', mode: 0o600, flush: true }));
}

const server = createServer((request, response) => {
  (raw ? writeRaw(request) : receive(request)).then(
    () => {
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: newName() }));
    },
    (error: Error) => {
      response.writeHead(500, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ error: error.message }));
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send!({ type: 'ready', url: `http://127.0.0.1:${port}` } satisfies FromServer);
});
// The same memory-reducing collection the bench server does on request (it runs with --expose-gc), so its idle RSS is read alike.
process.on('message', (message: ToServer) => {
  if (message.type !== 'collect') return;
  (globalThis as { gc?: (options: object) => void }).gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  process.send!({ type: 'collected' } satisfies FromServer);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
