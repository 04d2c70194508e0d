/**
 * The intake's spooling of a file, on its own: a file arriving in many chunks, faster than the disk
 * takes them, is spooled whole without the spool's writer collecting a listener per wait.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { discardSpool, receiveUpload } from './intake.ts';
import type { UploadSource } from './upload-source.ts';

const KiB = 1024;
let spoolDir: string;

beforeAll(async () => {
  spoolDir = await mkdtemp(join(tmpdir(), 'lfk-intake-'));
});
afterAll(async () => {
  await rm(spoolDir, { recursive: true, force: true });
});

/** One file part of `count` chunks of 64 KiB: each over the spool writer's buffer, so every write waits for it to drain. */
function oneFile(count: number): UploadSource {
  return {
    async *parts() {
      yield {
        kind: 'file',
        field: 'document',
        filename: 'big.bin',
        declaredType: 'application/octet-stream',
        chunks: (async function* () {
          for (let i = 0; i < count; i++) yield Buffer.alloc(64 * KiB, i % 251);
        })(),
      };
    },
  };
}

it('spools a file of many chunks whole, without a listener left on the spool writer for each wait', async () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    const received = await receiveUpload(
      oneFile(40),
      [{ name: 'document', type: 'file', required: true, max_size: 10 * 1024 * KiB }],
      { maxFileSize: 10 * 1024 * KiB, maxSubmissionSize: 10 * 1024 * KiB, spoolDir },
      { count: 10, bytes: KiB },
    );
    expect(received.files).toHaveLength(1);
    expect(received.files[0]!.size).toBe(40 * 64 * KiB);
    expect((await readFile(received.files[0]!.path)).length).toBe(40 * 64 * KiB);
    await discardSpool(received.files);
    // Node reports a listener leak as a process warning, on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});

it('refuses a file of the wrong type as soon as its first bytes are in, reading no more of it', async () => {
  let chunksRead = 0;
  // HTML sent as a PDF, of no end: if the intake read on past its first bytes, this would never return.
  const endless: UploadSource = {
    async *parts() {
      yield {
        kind: 'file',
        field: 'cv',
        filename: 'cv.pdf',
        declaredType: 'application/pdf',
        chunks: (async function* () {
          yield Buffer.from(`<!doctype html><html><body>${' '.repeat(8 * KiB)}`);
          for (;;) {
            chunksRead += 1;
            yield Buffer.alloc(64 * KiB, 0x20);
          }
        })(),
      };
    },
  };
  const refused = receiveUpload(
    endless,
    [{ name: 'cv', type: 'file', required: true, accept: ['application/pdf'] }],
    { maxFileSize: 1024 * 1024 * KiB, maxSubmissionSize: 1024 * 1024 * KiB, spoolDir },
    { count: 10, bytes: KiB },
  );
  await expect(refused).rejects.toMatchObject({ apiCode: 'file_type_not_accepted', details: [{ path: 'cv' }] });
  expect(chunksRead).toBe(0);
  expect((await readdir(spoolDir)).filter((name) => name.endsWith('.part'))).toEqual([]);
});
