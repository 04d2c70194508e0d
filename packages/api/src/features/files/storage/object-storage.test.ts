import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { type S3Server, startS3Server, startTcpHop } from '@lfk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryStorage, type ObjectStorage, objectStorageFrom, S3Storage } from './index.ts';

// One contract, both backends: the data directory and a real S3-protocol server (s3rver, in a
// process of its own, checking every request's signature).

const MiB = 1024 * 1024;
let scratch: string;
let s3: S3Server;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'lfk-storage-test-'));
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A finished spool file holding `bytes`, as the upload path leaves it. */
async function spool(bytes: Buffer, folder = scratch): Promise<string> {
  const path = join(folder, `spool-${randomBytes(6).toString('hex')}`);
  await writeFile(path, bytes);
  return path;
}

const newKey = () => randomBytes(12).toString('hex');

async function bytesOf(stream: Readable | null): Promise<Buffer | null> {
  if (stream === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keysOf(storage: ObjectStorage, after?: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list(after)) keys.push(key);
  return keys;
}

const s3Settings = () => ({
  bucket: s3.bucket,
  region: s3.region,
  endpoint: s3.endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
});

const backends: [string, () => Promise<ObjectStorage>][] = [
  ['directory', async () => objectStorageFrom({ kind: 'directory', root: join(scratch, `files-${randomBytes(4).toString('hex')}`) })],
  ['s3', async () => objectStorageFrom({ kind: 's3', ...s3Settings() })],
];

describe.each(backends)('%s storage', (kind, open) => {
  let storage: ObjectStorage;
  beforeAll(async () => {
    storage = await open();
  });
  afterAll(async () => {
    await storage?.close();
  });

  it('is the kind it says', () => {
    expect(storage.kind).toBe(kind);
  });

  it('stores a file and reads it back whole, and in ranges: first byte, last byte, the middle', async () => {
    const bytes = randomBytes(1000);
    const key = newKey();
    await storage.putFile(key, await spool(bytes), bytes.length, 'application/pdf');

    expect(await bytesOf(await storage.read(key))).toEqual(bytes);
    expect(await bytesOf(await storage.read(key, { start: 0, end: 0 }))).toEqual(bytes.subarray(0, 1));
    expect(await bytesOf(await storage.read(key, { start: 999, end: 999 }))).toEqual(bytes.subarray(999));
    expect(await bytesOf(await storage.read(key, { start: 100, end: 599 }))).toEqual(bytes.subarray(100, 600));
    expect(await bytesOf(await storage.read(key, { start: 0, end: 999 }))).toEqual(bytes);
  });

  it('stores an empty file', async () => {
    const key = newKey();
    await storage.putFile(key, await spool(Buffer.alloc(0)), 0, 'text/plain');
    expect(await bytesOf(await storage.read(key))).toEqual(Buffer.alloc(0));
  });

  it('replaces an object put again under its key', async () => {
    const key = newKey();
    await storage.putFile(key, await spool(Buffer.from('first')), 5, 'text/plain');
    await storage.putFile(key, await spool(Buffer.from('second')), 6, 'text/plain');
    expect((await bytesOf(await storage.read(key)))?.toString()).toBe('second');
  });

  it('refuses a size that is not the file’s, storing nothing', async () => {
    const key = newKey();
    await expect(storage.putFile(key, await spool(Buffer.from('four')), 5, 'text/plain')).rejects.toThrow(/4 bytes, not 5/);
    expect(await storage.read(key)).toBeNull();
  });

  it('reads a missing object as null, and deletes one (twice) without error', async () => {
    expect(await storage.read(newKey())).toBeNull();
    expect(await storage.read(newKey(), { start: 0, end: 9 })).toBeNull();

    const key = newKey();
    await storage.putFile(key, await spool(Buffer.from('gone soon')), 9, 'text/plain');
    await storage.delete(key);
    expect(await storage.read(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
    await expect(storage.delete(newKey())).resolves.toBeUndefined();
  });

  it('lists every key stored, and no longer a deleted one', async () => {
    const before = await keysOf(storage);
    const keys = [newKey(), newKey(), newKey()];
    for (const key of keys) await storage.putFile(key, await spool(Buffer.from(key)), key.length, 'text/plain');
    const after = await keysOf(storage);
    expect(after).toHaveLength(before.length + 3);
    expect(after).toEqual(expect.arrayContaining(keys));

    await storage.delete(keys[0]!);
    const last = await keysOf(storage);
    expect(last).toHaveLength(before.length + 2);
    expect(last).not.toContain(keys[0]);
  });

  it('lists keys in order, from after a given key: where a walk stopped', async () => {
    const keys = [newKey(), newKey(), newKey(), newKey()];
    for (const key of keys) await storage.putFile(key, await spool(Buffer.from(key)), key.length, 'text/plain');
    const all = await keysOf(storage);
    expect(all).toEqual([...all].sort());
    const sorted = [...keys].sort();
    const after = await keysOf(storage, sorted[1]);
    expect(after).toEqual(all.filter((key) => key > sorted[1]!));
    expect(after).toEqual(expect.arrayContaining(sorted.slice(2)));
    expect(after).not.toContain(sorted[0]);
    expect(after).not.toContain(sorted[1]);
  });

  it('says when an object was stored: at or after its put began, even from a spool file written long before; null for none', async () => {
    const path = await spool(Buffer.from('old bytes'));
    const longAgo = new Date(Date.now() - 3 * 3_600_000);
    await utimes(path, longAgo, longAgo);
    const key = newKey();
    // The store's clock: to the second for S3.
    const began = Math.floor(Date.now() / 1000) * 1000;
    await storage.putFile(key, path, 9, 'text/plain');
    const storedAt = await storage.storedAt(key);
    expect(storedAt!.getTime()).toBeGreaterThanOrEqual(began);
    expect(storedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await storage.storedAt(newKey())).toBeNull();
  });

  it('refuses keys that are not lowercase letters and digits, before touching anything', async () => {
    const path = await spool(Buffer.from('x'));
    for (const bad of ['../escape', 'a/b', 'UPPER', 'with space', 'dot.dot', '', 'a', 'é1', 'x'.repeat(129), 'ab\u0000c']) {
      await expect(storage.putFile(bad, path, 1, 'text/plain'), bad).rejects.toThrow(/not an object key/);
      await expect(storage.read(bad), bad).rejects.toThrow(/not an object key/);
      await expect(storage.delete(bad), bad).rejects.toThrow(/not an object key/);
      await expect(storage.storedAt(bad), bad).rejects.toThrow(/not an object key/);
    }
    expect((await stat(path)).size).toBe(1);
  });

  it('takes many puts at once', async () => {
    const objects = Array.from({ length: 24 }, () => ({ key: newKey(), bytes: randomBytes(20_000 + Math.floor(Math.random() * 50_000)) }));
    const paths = await Promise.all(objects.map((o) => spool(o.bytes)));
    await Promise.all(objects.map((o, i) => storage.putFile(o.key, paths[i]!, o.bytes.length, 'application/octet-stream')));
    const listed = await keysOf(storage);
    expect(listed).toEqual(expect.arrayContaining(objects.map((o) => o.key)));
    for (const o of objects) expect(await bytesOf(await storage.read(o.key))).toEqual(o.bytes);
  });

  it('streams a 10 MiB object in and out without holding it in memory', async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new Error('run with --expose-gc (packages/api/vitest.config.ts)');
    /** Memory the process holds alive: JavaScript objects and the bytes of Buffers. */
    const live = () => {
      gc();
      const used = process.memoryUsage();
      return used.heapUsed + used.arrayBuffers;
    };
    const size = 10 * MiB;
    const bytes = randomBytes(size);
    const path = await spool(bytes);
    const key = newKey();
    // Warm up: the first request loads code and opens connections.
    await storage.putFile(newKey(), await spool(Buffer.from('warm')), 4, 'text/plain');
    // The test's own copy is dropped before measuring; only a hash remains to compare with.
    const expected = (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex');
    bytes.fill(0);

    const baseline = live();
    const rssBefore = process.memoryUsage().rss;
    let peak = 0;
    // Sampled every few turns of the event loop while the upload runs (a collection each time is
    // slow): a buffered upload holds the whole object across many turns.
    let uploading = true;
    let turns = 0;
    const sample = () => {
      if (turns++ % 4 === 0) peak = Math.max(peak, live() - baseline);
      if (uploading) setImmediate(sample);
    };
    setImmediate(sample);
    await storage.putFile(key, path, size, 'application/octet-stream');
    uploading = false;

    const hash = (await import('node:crypto')).createHash('sha256');
    const stream = await storage.read(key);
    if (!stream) throw new Error('the object just stored is missing');
    let read = 0;
    let nextSample = 0;
    for await (const chunk of stream) {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
      if (read >= nextSample) {
        peak = Math.max(peak, live() - baseline);
        nextSample += MiB;
      }
    }
    const rssGrowth = process.memoryUsage().rss - rssBefore;

    expect(read).toBe(size);
    expect(hash.digest('hex')).toBe(expected);
    // Generous: a buffered put or read alone would hold 10 MiB.
    expect(peak, `live memory grew by ${(peak / MiB).toFixed(1)} MiB`).toBeLessThan(size / 2);
    expect(rssGrowth, `rss grew by ${(rssGrowth / MiB).toFixed(1)} MiB`).toBeLessThan(size);
  });
});

describe('the directory storage on disk', () => {
  let root: string;
  let storage: DirectoryStorage;
  beforeAll(async () => {
    root = join(scratch, 'on-disk');
    storage = new DirectoryStorage(root);
    await storage.check();
  });

  it('moves the spool file into a two-level fan-out, readable by its owner alone', async () => {
    const key = newKey();
    const path = await spool(Buffer.from('private'));
    await storage.putFile(key, path, 7, 'text/plain');
    const stored = join(root, key.slice(0, 2), key);
    expect(await readFile(stored, 'utf8')).toBe('private');
    expect((await stat(stored)).mode & 0o777).toBe(0o600);
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('copies a spool file from another filesystem (EXDEV), leaving no partial file', async () => {
    const otherFs = '/dev/shm';
    expect((await stat(otherFs)).dev, 'this test needs /dev/shm on another filesystem than the temporary folder').not.toBe((await stat(root)).dev);
    const folder = await mkdtemp(join(otherFs, 'lfk-spool-'));
    try {
      const key = newKey();
      const bytes = randomBytes(300_000);
      const path = await spool(bytes, folder);
      await storage.putFile(key, path, bytes.length, 'application/octet-stream');
      expect(await bytesOf(await storage.read(key))).toEqual(bytes);
      expect((await stat(join(root, key.slice(0, 2), key))).mode & 0o777).toBe(0o600);
      await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await keysOf(storage)).toContain(key);
      const { readdir } = await import('node:fs/promises');
      expect((await readdir(join(root, key.slice(0, 2)))).filter((name) => name.startsWith('.'))).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a temporary root (LFK_DATA_DIR=memory://) is made at opening and gone at closing', async () => {
    const temporary = await objectStorageFrom({ kind: 'directory', root: null });
    const at = (temporary as DirectoryStorage).root;
    await temporary.putFile(newKey(), await spool(Buffer.from('tmp')), 3, 'text/plain');
    expect((await stat(at)).isDirectory()).toBe(true);
    await temporary.close();
    await expect(stat(at)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses at opening a root it cannot write in', async () => {
    const file = await spool(Buffer.from('not a folder'));
    await expect(objectStorageFrom({ kind: 'directory', root: join(file, 'files') })).rejects.toThrow();
  });
});

describe('a misconfigured bucket fails at opening, saying what to fix', () => {
  it('a bucket that does not exist', async () => {
    await expect(objectStorageFrom({ kind: 's3', ...s3Settings(), bucket: 'no-such-bucket' })).rejects.toThrow(
      `S3 bucket "no-such-bucket" at ${s3.endpoint} cannot be used: no such bucket (404); create it, or correct LFK_S3_BUCKET`,
    );
  });

  it('a wrong secret: refused, and never repeated in the message', async () => {
    const secretAccessKey = 'wrong-secret-value';
    const opening = objectStorageFrom({ kind: 's3', ...s3Settings(), credentials: { accessKeyId: s3.accessKeyId, secretAccessKey } });
    await expect(opening).rejects.toThrow(/cannot be used: access denied \(403\); check LFK_S3_ACCESS_KEY_ID and LFK_S3_SECRET_ACCESS_KEY/);
    await expect(opening).rejects.not.toThrow(secretAccessKey);
  });

  it('an endpoint where nothing listens', async () => {
    const { freePort } = await import('@lfk/testing');
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    await expect(objectStorageFrom({ kind: 's3', ...s3Settings(), endpoint })).rejects.toThrow(
      new RegExp(`S3 bucket "${s3.bucket}" at ${endpoint} cannot be used: it could not be reached \\(ECONNREFUSED`),
    );
  });

  it('a store refusing every signature, through S3Storage.check', async () => {
    const storage = new S3Storage({ ...s3Settings(), credentials: { accessKeyId: 'SOMEONE', secretAccessKey: 'ELSE' } });
    try {
      await expect(storage.check()).rejects.toThrow(/cannot be used: access denied \(403\)/);
    } finally {
      await storage.close();
    }
  });
});

describe('an S3 put on a kept-alive connection the store has dropped', () => {
  it('is sent again from the spool file: stored whole, on the first call', async () => {
    const hop = await startTcpHop(s3.endpoint);
    const storage = new S3Storage({ ...s3Settings(), endpoint: hop.url.replace(/\/$/, '') });
    try {
      const first = randomBytes(64 * 1024);
      const firstKey = newKey();
      await storage.putFile(firstKey, await spool(first), first.length, 'application/octet-stream');
      // The connection the first put left open dies the moment the next request is written to it.
      hop.cutWhenReused();
      const bytes = randomBytes(256 * 1024);
      const key = newKey();
      await storage.putFile(key, await spool(bytes), bytes.length, 'application/octet-stream');
      expect((await bytesOf(await storage.read(key)))?.equals(bytes)).toBe(true);
    } finally {
      await storage.close();
      await hop.close();
    }
  });
});
