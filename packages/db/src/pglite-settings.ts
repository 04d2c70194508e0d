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
 * The built-in types lfk and MikroORM's schema queries can read arrays of (bool, char, name, int2,
 * int4, text, varchar, int8, float4, float8, oid, json, jsonb, numeric, uuid, bpchar), and those
 * arrays: an array's parser looks its elements' up in the same map.
 */
const READ_TYPES = [16, 18, 19, 21, 23, 25, 1043, 20, 700, 701, 26, 114, 3802, 1700, 2950, 1042];
const READ_ARRAY_TYPES = [1000, 1002, 1003, 1005, 1007, 1009, 1015, 1016, 1021, 1022, 1028, 199, 3807, 1231, 2951, 1014];

/**
 * PGlite copies its whole map of type parsers (one per built-in type and one per array type,
 * ~320 entries, growing with every table) for every statement, before it reads a row: ~60 µs a
 * statement, a third of a simple query's time. The map keeps what differs from PGlite's own
 * defaults, which it falls back to for any type the map lacks: the parsers given at creation
 * (MikroORM's, which keep dates as text) and those of the arrays lfk can read and their elements. Arrays of other types
 * (a table's row type, a range) then come back as their text, which nothing in lfk reads.
 */
export function trimTypeParsers(pglite: { parsers: Record<string | number, unknown> }, givenAtCreation: readonly number[]): void {
  const all = pglite.parsers;
  const kept: Record<number, unknown> = {};
  for (const oid of [...givenAtCreation, ...READ_TYPES, ...READ_ARRAY_TYPES]) if (all[oid] !== undefined) kept[oid] = all[oid];
  pglite.parsers = kept;
}

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
