/**
 * A file's object exists for a submission or not for long, on either backend: stored first, then
 * kept by the submission's transaction, its one commit; deleted at once when that write is
 * refused (scheduled when the delete fails); and found by the orphan sweep once older than the
 * grace when nothing committed (a crash between storing and committing), never while a submission
 * may still name it. The intake's content rules too.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ObjectDeletion } from '@lfk/db';
import { ENGINE, type S3Server, startS3Server } from '@lfk/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callerContext, type Services } from '../../context.ts';
import { createCaller } from '../../root.ts';
import { accepts, sniffContentType } from './content-types.ts';
import { cleanFileName } from './file-names.ts';
import type { SpooledFile } from './intake.ts';
import { sweepAllOrphans, sweepObjects, sweepOrphans } from './object-sweep.ts';
import { objectStorageFrom, type ObjectStorage } from './storage/index.ts';
import { dropUploads, keepUploads, storeUploads } from './storing.ts';
import type { UploadSource } from './upload-source.ts';
import { count, sql } from '../../../test/support/database.ts';
import { createForm } from '../../../test/support/forms.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';
import { linkExpiry } from './links.ts';

const QUIET = { debug() {}, info() {}, warn() {}, error() {} };
const MINUTE = 60_000;
let services: Services;
let now: Date;

beforeAll(async () => {
  now = new Date();
  services = await testServices({ now: () => now });
});

/** A received file in the services' spool folder, as the intake leaves one. */
async function spooled(on: Services, bytes = randomBytes(1000)): Promise<SpooledFile> {
  const path = join(on.files.settings.spoolDir, `${randomBytes(8).toString('hex')}.part`);
  await writeFile(path, bytes);
  return { field: 'doc', name: 'doc.bin', size: bytes.length, sha256: 'x'.repeat(64), contentType: 'application/octet-stream', path };
}

async function objectsOf(storage: ObjectStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list()) keys.push(key);
  return keys;
}

/** A multipart body of one file part, as the transport hands it to the submission procedure. */
function oneFile(bytes = randomBytes(2000)): UploadSource {
  return {
    async *parts() {
      yield {
        kind: 'file',
        field: 'doc',
        filename: 'doc.bin',
        declaredType: 'application/octet-stream',
        chunks: (async function* () {
          yield bytes;
        })(),
      };
    },
  };
}

/** A form taking one file, with a key of its workspace; `extra`: more of the form's settings (a cap). */
async function fileForm(on: Services, extra: Record<string, unknown> = {}) {
  const owner = await person(on);
  const { key } = await createKey(on, owner);
  const form = await createForm(on, key, { name: 'Files', schema: [{ name: 'doc', type: 'file', required: true }], submission_mode: 'api_key', ...extra });
  /** A submission of one file with the key, through the procedure as the REST route calls it. */
  const submit = async () => {
    const ctx = await callerContext(on, { bearer: key });
    ctx.upload = oneFile();
    return createCaller(ctx).submissions.create({ form_id: form.id, data: {} });
  };
  return { form, submit };
}

/** The object keys of the form's files, as recorded. */
async function recordedKeys(on: Services, formId: string): Promise<string[]> {
  const rows = await sql<{ object_key: string }>(
    on,
    'select f.object_key from submission_files f join submissions s on s.id = f.submission_id where s.form_id = ?',
    [formId],
  );
  return rows.map((row) => row.object_key);
}

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const s3Storage = (server: S3Server) =>
  objectStorageFrom({
    kind: 's3',
    bucket: server.bucket,
    region: server.region,
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });

const backends: [string, () => Promise<Services>][] = [
  ['directory', () => testServices({ now: () => now })],
  ['s3', async () => testServices({ now: () => now, storage: await s3Storage(s3) })],
];

describe.each(backends)(`an upload's objects, %s storage (${ENGINE})`, (_kind, open) => {
  let on: Services;
  let grace: number;
  beforeAll(async () => {
    on = await open();
    grace = on.files.settings.uploadGraceMs;
  });
  afterAll(async () => {
    await on?.files.storage.close();
  });
  beforeEach(() => {
    // The clock the rules read starts at the real time (objects are aged by the store's clock), and the tests turn it.
    now = new Date();
  });
  const at = (ms: number) => new Date(now.getTime() + ms);
  const orphansSwept = (when: Date) => sweepAllOrphans(on.db, on.files.storage, when, grace);

  it('are stored and kept by one commit, with no deletion scheduled, and no sweep ever takes them', async () => {
    const { form, submit } = await fileForm(on);
    await submit();
    const [objectKey] = await recordedKeys(on, form.id);
    expect(await objectsOf(on.files.storage)).toContain(objectKey);
    expect(await count(on, 'object_deletions where object_key = ?', [objectKey])).toBe(0);
    expect(await sweepObjects(on.db, on.files.storage, at(10 * grace))).toBe(0);
    await orphansSwept(at(10 * grace));
    expect(await objectsOf(on.files.storage)).toContain(objectKey);
  });

  it('are swept by the orphan sweep once older than the grace if no submission kept them (a crash before the commit), and not before', async () => {
    const [stored] = await storeUploads(on, [await spooled(on)], QUIET);
    const key = stored!.objectKey;
    expect(await count(on, 'object_deletions where object_key = ?', [key])).toBe(0);
    // Younger than the grace: a request may still commit it.
    await orphansSwept(at(grace / 2));
    await orphansSwept(at(grace - MINUTE));
    expect(await objectsOf(on.files.storage)).toContain(key);
    // Past half the grace the submission is refused, so it can never commit what the sweep takes.
    expect(() => keepUploads([stored!], at(grace / 2 + 1000), grace)).toThrow(/took too long/);
    expect(() => keepUploads([stored!], at(grace / 2 - 1000), grace)).not.toThrow();
    expect(await orphansSwept(at(grace + MINUTE))).toBeGreaterThanOrEqual(1);
    expect(await objectsOf(on.files.storage)).not.toContain(key);
  });

  it('refuses a submission whose storing outlasted half the grace, and deletes its objects at once', async () => {
    const { form, submit } = await fileForm(on);
    const before = await objectsOf(on.files.storage);
    // The clock jumps while the files are stored: as if the put had taken that long.
    const storage = on.files.storage;
    const putFile = storage.putFile.bind(storage);
    storage.putFile = async (...args) => {
      await putFile(...args);
      now = at(grace / 2 + MINUTE);
    };
    try {
      await expectRefused(submit(), 503, 'storage_unavailable');
    } finally {
      delete (storage as { putFile?: unknown }).putFile;
    }
    expect(await count(on, 'submissions where form_id = ?', [form.id])).toBe(0);
    expect(await objectsOf(on.files.storage)).toEqual(before);
    expect(await count(on, 'object_deletions')).toBe(0);
  });

  it('of a write refused in its transaction (the form full) are deleted at once, nothing scheduled', async () => {
    const { form, submit } = await fileForm(on, { max_submissions: 1 });
    await submit();
    const before = await objectsOf(on.files.storage);
    await expectRefused(submit(), 403, 'form_closed');
    expect(await objectsOf(on.files.storage)).toEqual(before);
    expect(await count(on, 'object_deletions')).toBe(0);
    expect(await recordedKeys(on, form.id)).toHaveLength(1);
  });

  it("leave alone what is not an upload's key, whatever its age", async () => {
    const path = join(on.files.settings.spoolDir, 'not-ours.part');
    const text = Buffer.from('an operator’s file');
    await writeFile(path, text);
    await on.files.storage.putFile('readme', path, text.length, 'text/plain');
    await orphansSwept(at(100 * grace));
    expect(await objectsOf(on.files.storage)).toContain('readme');
    await on.files.storage.delete('readme');
  });

  it('are walked in bounded batches, each starting where the last stopped, round and round', async () => {
    const stored = await storeUploads(on, await Promise.all(Array.from({ length: 5 }, () => spooled(on))), QUIET);
    const keys = new Set(stored.map((f) => f.objectKey));
    let after: string | null = null;
    let deleted = 0;
    let batches = 0;
    do {
      const batch: Awaited<ReturnType<typeof sweepOrphans>> = await sweepOrphans(on.db, on.files.storage, at(grace + MINUTE), grace, after, 2);
      deleted += batch.deleted;
      after = batch.next;
      batches += 1;
    } while (after !== null);
    expect(deleted).toBeGreaterThanOrEqual(5);
    expect(batches).toBeGreaterThanOrEqual(3);
    expect((await objectsOf(on.files.storage)).filter((key) => keys.has(key))).toEqual([]);
  });
});

describe(`an upload's objects while the store fails (${ENGINE})`, () => {
  it('are scheduled for deletion when their delete fails, and when a put fails midway', async () => {
    const own = await startS3Server();
    const on = await testServices({ now: () => now, storage: await s3Storage(own) });
    try {
      now = new Date();
      const stored = await storeUploads(on, [await spooled(on), await spooled(on)], QUIET);
      const keys = stored.map((f) => f.objectKey);
      await own.close();
      // The write was refused after they were stored, and the store is gone: scheduled, due at once.
      await dropUploads(on, stored, QUIET);
      const scheduled = await count(on, `object_deletions where object_key in (?, ?) and delete_after <= ?`, [...keys, now]);
      expect(scheduled).toBe(2);
      // A put that fails: what it tried is scheduled too, and the answer is a 503.
      const waiting = await count(on, 'object_deletions');
      await expectRefused(storeUploads(on, [await spooled(on)], QUIET), 503, 'storage_unavailable');
      expect(await count(on, 'object_deletions')).toBe(waiting + 1);
    } finally {
      // Their store is gone for good: no other test's sweep should count them.
      await sql(on, 'delete from object_deletions');
      await on.files.storage.close();
      await own.close();
    }
  });
});

describe(`scheduled deletions (${ENGINE})`, () => {
  it('are swept once when two replicas sweep at the same moment', async () => {
    now = new Date();
    const stored = await storeUploads(services, await Promise.all([spooled(services), spooled(services), spooled(services)]), QUIET);
    await services.db
      .fork()
      .getRepository(ObjectDeletion)
      .schedule(
        stored.map((f) => f.objectKey),
        now,
      );
    const later = new Date(now.getTime() + 60_000);
    const [a, b] = await Promise.all([sweepObjects(services.db, services.files.storage, later), sweepObjects(services.db, services.files.storage, later)]);
    expect(a + b).toBe(3);
    for (const file of stored) expect(await objectsOf(services.files.storage)).not.toContain(file.objectKey);
  });
});

describe("a file's type and name", () => {
  it('is what its bytes are, whatever it was sent as', async () => {
    const head = (text: string) => Buffer.from(text);
    expect(await sniffContentType(head('%PDF-1.7\n'), true, 'text/plain')).toBe('application/pdf');
    expect(await sniffContentType(head('<!DOCTYPE html><p>hi'), true, 'application/pdf')).toBe('text/html');
    expect(await sniffContentType(head('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'), true, 'image/png')).toBe('image/svg+xml');
    expect(await sniffContentType(head('<svg onload="alert(1)">'), true, 'image/png')).toBe('image/svg+xml');
    expect(await sniffContentType(head('name,email\nAda,ada@example.com\n'), true, 'text/csv')).toBe('text/csv');
    expect(await sniffContentType(head('name,email\n'), true, 'application/pdf')).toBe('text/plain');
    expect(
      await sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), true, 'application/pdf'),
    ).toBe('image/png');
    expect(await sniffContentType(Buffer.from([0, 1, 2, 3, 0xff]), true, 'image/png')).toBe('application/octet-stream');
  });

  it("is judged against the field's accept list: exact types and type/*", () => {
    expect(accepts(undefined, 'text/html')).toBe(true);
    expect(accepts(['application/pdf', 'image/*'], 'image/png')).toBe(true);
    expect(accepts(['application/pdf', 'image/*'], 'application/pdf')).toBe(true);
    expect(accepts(['application/pdf', 'image/*'], 'text/html')).toBe(false);
    expect(accepts(['image/png'], 'image/svg+xml')).toBe(false);
  });

  it('keeps a name for display only: no path, no control or direction characters, at most 255 characters with its extension', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\ada\\cv.pdf')).toBe('cv.pdf');
    expect(cleanFileName('cv\u0000.pdf')).toBe('cv.pdf');
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName('')).toBe('file');
    const long = cleanFileName(`${'a'.repeat(10_000)}.pdf`);
    expect(Array.from(long)).toHaveLength(255);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});

describe("a signed link's lifetime", () => {
  it("is the workspace's file_link_ttl when shorter than the server's, and never longer", async () => {
    const owner = await person(services);
    const caller = await callerFor(services, owner.token);
    const at = now.getTime();
    const serverTtl = services.files.settings.linkTtlSeconds;
    expect((await linkExpiry(services.db.fork(), owner.workspaceId, serverTtl, now)).getTime()).toBe(at + serverTtl * 1000);
    await caller.workspaces.update({ workspace_id: owner.workspaceId, file_link_ttl: 3600 });
    expect((await linkExpiry(services.db.fork(), owner.workspaceId, serverTtl, now)).getTime()).toBe(at + 3_600_000);
    // 30 days asked, 7 allowed by this server: 7.
    await caller.workspaces.update({ workspace_id: owner.workspaceId, file_link_ttl: 30 * 86_400 });
    expect((await linkExpiry(services.db.fork(), owner.workspaceId, serverTtl, now)).getTime()).toBe(at + serverTtl * 1000);
    // An unclaimed form's files: the server's.
    expect((await linkExpiry(services.db.fork(), null, serverTtl, now)).getTime()).toBe(at + serverTtl * 1000);
  });

  it('opens its file until it expires, and a link forged or tampered with opens nothing', () => {
    const links = services.files.links;
    const url = links.url('file_01jd0000000000000000000000', new Date(now.getTime() + 60_000));
    const token = url.split('/').pop()!;
    expect(links.fileOf(token, now)).toBe('file_01jd0000000000000000000000');
    expect(links.fileOf(token, new Date(now.getTime() + 60_000))).toBeNull();
    const [id, expires, signature] = token.split('.');
    expect(links.fileOf(`${id}.${Number(expires) + 3600}.${signature}`, now)).toBeNull();
    expect(links.fileOf(`${id}.${expires}.${signature!.slice(1)}A`, now)).toBeNull();
    expect(links.fileOf('file_01jd0000000000000000000000', now)).toBeNull();
  });
});
