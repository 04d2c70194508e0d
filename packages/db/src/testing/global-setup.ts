/**
 * Once per test run, before any worker starts: the migrated database every test database is
 * copied from. On PGlite, an image of a migrated data directory, kept on disk between runs (keyed
 * by what could change it); on PostgreSQL (`TEST_DATABASE_URL`), a migrated template database for
 * this run, dropped at the end with every database the run made from it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS, openDatabase } from '../database.ts';
import { PGLITE_START_PARAMS } from '../pglite-settings.ts';
import type { TestProject } from 'vitest/node';
import { pgliteOf } from './database.ts';
import { adminQuery, databaseUrl, RUN_DATABASE_PREFIX, templateName } from './postgres-databases.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const CACHE_DIR = join(ROOT, 'node_modules/.cache/lfk-testing');

/** What the image depends on: the migrations, the versions of PGlite and of MikroORM's migrator, PGlite's start parameters. */
function imageKey(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS.path).sort()) hash.update(file).update(readFileSync(join(MIGRATIONS.path, file)));
  for (const dependency of ['@electric-sql/pglite', '@mikro-orm/migrations']) {
    hash.update(readFileSync(join(ROOT, 'node_modules', dependency, 'package.json')));
  }
  hash.update(PGLITE_START_PARAMS.join(' '));
  return hash.digest('hex').slice(0, 16);
}

async function pgliteImage(): Promise<string> {
  const path = join(CACHE_DIR, `pglite-${imageKey()}.tar`);
  if (statSync(path, { throwIfNoEntry: false })?.isFile()) return path;
  const db = await openDatabase({ dataDir: 'memory://' });
  try {
    const image = await (await pgliteOf(db)).dumpDataDir('none');
    mkdirSync(CACHE_DIR, { recursive: true });
    // Two runs at once may both write it: each writes its own file and renames it into place.
    const scratch = `${path}.${process.pid}`;
    writeFileSync(scratch, Buffer.from(await image.arrayBuffer()));
    renameSync(scratch, path);
    // Images of migrations since changed are of no more use.
    for (const old of readdirSync(CACHE_DIR))
      if (old.startsWith('pglite-') && old.endsWith('.tar') && join(CACHE_DIR, old) !== path) rmSync(join(CACHE_DIR, old), { force: true });
  } finally {
    await db.close();
  }
  return path;
}

export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    project.provide('lfkTestDatabase', { engine: 'pglite', image: await pgliteImage() });
    return;
  }
  const run = randomBytes(4).toString('hex');
  await adminQuery(baseUrl, `create database ${templateName(run)}`);
  const db = await openDatabase({ databaseUrl: databaseUrl(baseUrl, templateName(run)) });
  await db.close();
  project.provide('lfkTestDatabase', { engine: 'postgresql', run });
  return async () => {
    const rows = await adminQuery<{ datname: string }>(baseUrl, 'select datname from pg_database where datname like $1', [`${RUN_DATABASE_PREFIX}${run}_%`]);
    for (const { datname } of rows) await adminQuery(baseUrl, `drop database if exists ${datname} with (force)`);
  };
}
