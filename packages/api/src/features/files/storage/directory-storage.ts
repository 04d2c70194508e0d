import { constants, type Dirent } from 'node:fs';
import { chmod, copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { assertObjectKey, isObjectKey } from './object-key.ts';
import type { ByteRange, ObjectStorage } from './object-storage.ts';

/** Objects are readable by lfk's own user alone. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

const isCode = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

/** Makes a rename, a new file or a removal in `folder` survive a crash: its entries are written down. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes a file's bytes down before it is named as an object, so a crash never leaves a named but empty or torn object. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Objects as files under a root folder (`<LFK_DATA_DIR>/files`), two levels deep by the key's
 * first two characters (`<root>/ab/ab…`), so no folder grows past what a listing handles well.
 * Putting an object renames the caller's spool file into place: no copy on the same filesystem.
 */
export class DirectoryStorage implements ObjectStorage {
  readonly kind = 'directory';
  readonly takesFlushedFiles = true;
  readonly root: string;
  readonly #removeOnClose: boolean;
  /** The fan-out folders this process made or found: each is made (and written down) once, not at every put. */
  readonly #folders = new Set<string>();

  /** `removeOnClose`: the root is a temporary folder of this process (`LFK_DATA_DIR=memory://`), gone at close as the database is. */
  constructor(root: string, options: { removeOnClose?: boolean } = {}) {
    this.root = root;
    this.#removeOnClose = options.removeOnClose ?? false;
  }

  /** Makes the root folder if it is missing and checks lfk may write in it: at start, so a bad path fails there. */
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: FOLDER_MODE });
    const probe = join(this.root, `.probe-${randomBytes(6).toString('hex')}`);
    try {
      await (await open(probe, 'wx', FILE_MODE)).close();
      await unlink(probe);
    } catch (error) {
      throw new Error(`the file storage folder ${this.root} is not writable: ${(error as Error).message}`);
    }
  }

  #folderOf(key: string): string {
    return join(this.root, key.slice(0, 2));
  }

  #pathOf(key: string): string {
    assertObjectKey(key);
    return join(this.#folderOf(key), key);
  }

  /**
   * The spool file (written down by the spool as it closed it: `takesFlushedFiles`) is checked,
   * made private, renamed into place, and its folder written down: as few calls as keep a crash
   * from leaving a named but torn object, or losing one the database names. Each is a trip through
   * Node's small file-system pool, which the writes' own flushes keep busy.
   */
  async putFile(key: string, path: string, size: number, _contentType: string): Promise<void> {
    const target = this.#pathOf(key);
    const folder = this.#folderOf(key);
    const found = await stat(path);
    if (found.size !== size) throw new Error(`the file to store as ${key} has ${found.size} bytes, not ${size}`);
    await this.#folder(folder);
    await chmod(path, FILE_MODE);
    try {
      await this.#renameInto(path, folder, target);
    } catch (error) {
      if (!isCode(error, 'EXDEV')) throw error;
      await this.#copyInto(path, folder, target);
    }
    await syncFolder(folder);
  }

  /** A fan-out folder removed since it was made (by hand, or a test) is made again. */
  async #renameInto(path: string, folder: string, target: string): Promise<void> {
    try {
      await rename(path, target);
    } catch (error) {
      if (!isCode(error, 'ENOENT') || !this.#folders.delete(folder)) throw error;
      await this.#folder(folder);
      await rename(path, target);
    }
  }

  /** Makes the fan-out folder if it is new, and then writes the root's entry for it down too. */
  async #folder(folder: string): Promise<void> {
    if (this.#folders.has(folder)) return;
    const made = await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
    if (made !== undefined) await syncFolder(this.root);
    this.#folders.add(folder);
  }

  /** The spool is on another filesystem: copy beside the target, write it down, then rename (never a half-copied object under its key). */
  async #copyInto(path: string, folder: string, target: string): Promise<void> {
    const partial = join(folder, `.partial-${randomBytes(8).toString('hex')}`);
    try {
      await copyFile(path, partial);
      await chmod(partial, FILE_MODE);
      await syncFile(partial);
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    await unlink(path).catch((error) => {
      if (!isCode(error, 'ENOENT')) throw error;
    });
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    const path = this.#pathOf(key);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isCode(error, 'ENOENT')) return null;
      throw error;
    }
    // The stream owns the handle and closes it at its end, on error or when destroyed.
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.#pathOf(key));
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw error;
    }
  }

  /** Folder by folder in order, each read and sorted as it is reached: one fan-out folder's names in memory at a time. */
  async *list(after?: string): AsyncIterable<string> {
    const folders = (await entries(this.root))
      .filter((folder) => folder.isDirectory() && folder.name.length === 2 && (after === undefined || folder.name >= after.slice(0, 2)))
      .map((folder) => folder.name)
      .sort(bytewise);
    for (const folder of folders) {
      const names = (await entries(join(this.root, folder)))
        .filter((file) => file.isFile() && isObjectKey(file.name) && file.name.startsWith(folder) && (after === undefined || file.name > after))
        .map((file) => file.name)
        .sort(bytewise);
      yield* names;
    }
  }

  /**
   * The object's status change time (ctime): its rename into place sets it (Linux's file systems
   * do, and the chmod before it does everywhere), where its modification time is when the spool's
   * last byte was written, which may be long before (a slow body's other parts).
   */
  async storedAt(key: string): Promise<Date | null> {
    try {
      return (await stat(this.#pathOf(key))).ctime;
    } catch (error) {
      if (isCode(error, 'ENOENT')) return null;
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#removeOnClose) await rm(this.root, { recursive: true, force: true });
  }
}

/** Strings in code-unit order (`<`), which for keys of `[a-z0-9]` is S3's bytewise order; not the locale's. */
const bytewise = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A folder's entries; none when it is not there (nothing stored yet). */
async function entries(folder: string): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isCode(error, 'ENOENT')) return [];
    throw error;
  }
}
