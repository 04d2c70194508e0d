import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's settings for the embedded database, on top of PGlite's own. PGlite keeps the
 * stock 128 MB of shared buffers in its WebAssembly memory, which never shrinks; lfk's working set
 * (keys, forms, the newest submissions) fits in far less, and the process is meant to fit a small box.
 * Measured on an existing data directory: 370 MiB resident with the defaults, 225 MiB with these.
 */
export const PGLITE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'wal_buffers=512kB'];

/**
 * A new data directory is created by PGlite's initdb, which leaves the WebAssembly memory at
 * about 600 MiB for the life of the process (closing PGlite gives little of it back). So a new
 * directory is initialised by a short-lived process of its own, and the server only ever opens an
 * existing one. The script is this very module, run as a program with the directory as argument.
 */
export function initialiseDataDirOutOfProcess(dataDir: string): void {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  execFileSync(process.execPath, [import.meta.filename, dataDir], { stdio: ['ignore', 'ignore', 'inherit'] });
}

if (process.argv[1] === import.meta.filename) {
  const pglite = await PGlite.create({ dataDir: process.argv[2]!, startParams: [...PGLITE_START_PARAMS] });
  await pglite.close();
}
