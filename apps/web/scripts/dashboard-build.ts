import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `apps/web`. */
const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPOSITORY_DIR = resolve(WEB_DIR, '../..');

/** The cached build the server serves (git-ignored). */
export const DASHBOARD_DIST = join(WEB_DIR, 'dist');

/** Written beside the build: what it was made from, so a start can tell whether it is current. */
const STAMP_FILE = '.build-stamp.json';

interface BuildStamp {
  /** sha256 of every input below, path and content. */
  hash: string;
  /** The files the build read, relative to the repository. */
  inputs: string[];
}

/**
 * Inputs of every build besides the modules the bundler reads: the page, the bundler's settings,
 * this file, and the lockfile (which pins every dependency inside the bundle).
 */
const FIXED_INPUTS = ['apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/scripts/dashboard-build.ts', 'package-lock.json'];

async function hashOf(inputs: string[]): Promise<string | null> {
  const hash = createHash('sha256');
  for (const input of [...inputs].sort()) {
    const path = join(REPOSITORY_DIR, input);
    if (!existsSync(path)) return null;
    hash.update(input).update('\0').update(await readFile(path)).update('\0');
  }
  return hash.digest('hex');
}

async function readStamp(): Promise<BuildStamp | null> {
  try {
    return JSON.parse(await readFile(join(DASHBOARD_DIST, STAMP_FILE), 'utf8')) as BuildStamp;
  } catch {
    return null;
  }
}

/**
 * True when the cached build was made from exactly the files on disk now. The files hashed are
 * those the last build actually read (its module graph), so a new file counts from the moment a
 * changed one imports it, and moving a module anywhere in the repository is noticed.
 */
export async function isDashboardBuildCurrent(): Promise<boolean> {
  const stamp = await readStamp();
  if (!stamp || !existsSync(join(DASHBOARD_DIST, 'index.html'))) return false;
  return (await hashOf(stamp.inputs)) === stamp.hash;
}

/** The modules a bundle was made of that live in this repository (not dependencies, not virtual modules). */
function repositoryModules(ids: Iterable<string>): string[] {
  const files = new Set<string>();
  for (const id of ids) {
    const path = id.split('?')[0]!;
    if (!isAbsolute(path) || path.includes('/node_modules/') || !existsSync(path)) continue;
    files.add(relative(REPOSITORY_DIR, path));
  }
  return [...files];
}

/**
 * Builds the dashboard with Vite into a fresh folder, then swaps it in whole: a server reading the
 * old build never sees half of the new one, and two starts racing leave one complete build.
 */
export async function buildDashboard(): Promise<void> {
  // Loaded only when a build is needed: importing Vite costs more than a whole start's check.
  const { build } = await import('vite');
  const modules = new Set<string>();
  const scratch = join(WEB_DIR, `.dist-${process.pid}-${Date.now()}`);
  // Always the production build: a build started by the tests (vitest sets NODE_ENV=test) is the one
  // `npm start` serves next, and Vite picks packages' development builds from NODE_ENV.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: WEB_DIR,
      configFile: join(WEB_DIR, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
      build: { outDir: scratch, emptyOutDir: true },
      plugins: [
        {
          name: 'lfk-record-inputs',
          buildEnd() {
            for (const id of this.getModuleIds()) modules.add(id);
          },
        },
      ],
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const inputs = [...new Set([...FIXED_INPUTS, ...repositoryModules(modules)])];
  const hash = await hashOf(inputs);
  if (!hash) throw new Error('an input of the dashboard build disappeared while it was built');
  await writeFile(join(scratch, STAMP_FILE), `${JSON.stringify({ hash, inputs } satisfies BuildStamp, null, 2)}\n`);
  const previous = `${scratch}-previous`;
  await mkdir(dirname(DASHBOARD_DIST), { recursive: true });
  if (existsSync(DASHBOARD_DIST)) await rename(DASHBOARD_DIST, previous).catch(() => undefined);
  await rename(scratch, DASHBOARD_DIST).catch(async (error: NodeJS.ErrnoException) => {
    // Another start put its build there first: the same sources, so either will do.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    await rm(scratch, { recursive: true, force: true });
  });
  await rm(previous, { recursive: true, force: true });
}

/**
 * Makes sure the dashboard's cached build matches its sources, building it when it does not.
 * Returns whether it built (a first start, or changed sources).
 */
export async function ensureDashboardBuilt(log: (line: string) => void = () => {}): Promise<boolean> {
  if (await isDashboardBuildCurrent()) return false;
  const first = (await readStamp()) === null;
  log(first ? 'Building the dashboard (a first start: about a second)…' : 'Building the dashboard (its sources changed since the last build)…');
  const started = performance.now();
  await buildDashboard();
  log(`Dashboard built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}
