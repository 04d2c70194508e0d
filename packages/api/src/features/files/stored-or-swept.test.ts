/**
 * A file's object exists for a submission or not for long: stored with its deletion scheduled
 * first, kept only by the submission's transaction taking that back in time, and swept otherwise
 * (a crash between storing and committing), once across replicas. The intake's content rules too.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { accepts, sniffContentType } from './content-types.ts';
import { cleanFileName } from './file-names.ts';
import type { SpooledFile } from './intake.ts';
import { sweepObjects } from './object-sweep.ts';
import { keepUploads, storeUploads } from './storing.ts';
import { count } from '../../../test/support/database.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';
import { linkExpiry } from './links.ts';

const QUIET = { debug() {}, info() {}, warn() {}, error() {} };
let services: Services;
let now: Date;

beforeAll(async () => {
  now = new Date('2026-11-27T10:00:00Z');
  services = await testServices({ now: () => now });
});

/** A received file in the services' spool folder, as the intake leaves one. */
async function spooled(bytes = randomBytes(1000)): Promise<SpooledFile> {
  const path = join(services.files.settings.spoolDir, `${randomBytes(8).toString('hex')}.part`);
  await writeFile(path, bytes);
  return { field: 'doc', name: 'doc.bin', size: bytes.length, sha256: 'x'.repeat(64), contentType: 'application/octet-stream', path };
}

async function objects(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of services.files.storage.list()) keys.push(key);
  return keys;
}

describe(`an upload's objects (${ENGINE})`, () => {
  it('are swept once their grace has passed if no submission kept them (a crash between storing and committing)', async () => {
    const [stored] = await storeUploads(services, [await spooled()], QUIET);
    expect(await objects()).toContain(stored!.objectKey);
    // Before half the sweep's interval: kept, a request may still commit.
    expect(await sweepObjects(services.db, services.files.storage, new Date(now.getTime() + 29_000))).toBe(0);
    expect(await objects()).toContain(stored!.objectKey);
    expect(await sweepObjects(services.db, services.files.storage, new Date(now.getTime() + 30_000))).toBe(1);
    expect(await objects()).not.toContain(stored!.objectKey);
    expect(await count(services, 'object_deletions where object_key = ?', [stored!.objectKey])).toBe(0);
    // Too late to keep: the transaction that would record it is refused, so nothing points at a swept object.
    await expectRefused(
      services.db.fork().transactional((em) => keepUploads(em, [stored!])),
      503,
      'storage_unavailable',
    );
  });

  it('are kept by the transaction that takes their schedule back, and then no sweep touches them', async () => {
    const [stored] = await storeUploads(services, [await spooled()], QUIET);
    await services.db.fork().transactional((em) => keepUploads(em, [stored!]));
    expect(await sweepObjects(services.db, services.files.storage, new Date(now.getTime() + 3_600_000))).toBe(0);
    expect(await objects()).toContain(stored!.objectKey);
  });

  it('are swept once when two replicas sweep at the same moment', async () => {
    const stored = await storeUploads(services, await Promise.all([spooled(), spooled(), spooled()]), QUIET);
    const later = new Date(now.getTime() + 60_000);
    const [a, b] = await Promise.all([sweepObjects(services.db, services.files.storage, later), sweepObjects(services.db, services.files.storage, later)]);
    expect(a + b).toBe(3);
    for (const file of stored) expect(await objects()).not.toContain(file.objectKey);
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
