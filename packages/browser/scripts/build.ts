/**
 * Builds the kit (`src/`) into `dist/lfk.js`: one minified IIFE a page loads with a `<script>` tag,
 * with `dist/kit.json` beside it (its version and SRI hash, and what it was built from). Nothing is
 * committed: `npm start` and the dashboard's tests build it when its sources changed, as they do
 * the dashboard (apps/web/scripts/build-if-changed.ts), and the server serves it from `dist/`.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `packages/browser`. */
const KIT_PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPOSITORY_DIR = resolve(KIT_PACKAGE_DIR, '../..');

/** The built kit (git-ignored): `lfk.js` and `kit.json`. The server reads it from there. */
export const KIT_DIST = join(KIT_PACKAGE_DIR, 'dist');

export const KIT_FILE = 'lfk.js';
export const KIT_MANIFEST = 'kit.json';

export interface KitManifest {
  /** `<package version>-<10 hex of the file's sha256>`: a new file is a new version, so the versioned path can be immutable. */
  version: string;
  /** The file's Subresource Integrity hash, `sha384-…`. */
  integrity: string;
  /** sha256 of what the build read (the sources, this file, the package's manifest, the lockfile). */
  inputsHash: string;
}

async function inputFiles(): Promise<string[]> {
  const sources = (await readdir(join(KIT_PACKAGE_DIR, 'src'), { recursive: true })).filter((file) => file.endsWith('.ts')).map((file) => join('src', file));
  const own = [...sources, 'scripts/build.ts', 'package.json'].map((file) => relative(REPOSITORY_DIR, join(KIT_PACKAGE_DIR, file)));
  return [...own, 'package-lock.json'].sort();
}

async function inputsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const input of await inputFiles()) hash.update(input).update('\0').update(await readFile(join(REPOSITORY_DIR, input))).update('\0');
  return hash.digest('hex');
}

export async function readKitManifest(dir = KIT_DIST): Promise<KitManifest | null> {
  try {
    return JSON.parse(await readFile(join(dir, KIT_MANIFEST), 'utf8')) as KitManifest;
  } catch {
    return null;
  }
}

/** The minified kit, as the bundler makes it (nothing written). */
export async function bundleKit(): Promise<string> {
  // Loaded only when a build is needed.
  const { build } = await import('rolldown');
  const result = await build({
    cwd: KIT_PACKAGE_DIR,
    input: join(KIT_PACKAGE_DIR, 'src/index.ts'),
    platform: 'browser',
    logLevel: 'warn',
    write: false,
    transform: { target: 'es2022' },
    output: { format: 'iife', minify: true },
  });
  return result.output[0].code;
}

/** Builds the kit into `dist/`; the script first and the manifest last, each swapped in whole. */
export async function buildKit(): Promise<KitManifest> {
  const hash = await inputsHash();
  const code = await bundleKit();
  const { version: packageVersion } = JSON.parse(await readFile(join(KIT_PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
  const manifest: KitManifest = {
    version: `${packageVersion}-${createHash('sha256').update(code).digest('hex').slice(0, 10)}`,
    integrity: `sha384-${createHash('sha384').update(code).digest('base64')}`,
    inputsHash: hash,
  };
  await mkdir(KIT_DIST, { recursive: true });
  const scratch = `.${process.pid}-${Date.now()}`;
  await writeFile(join(KIT_DIST, `${KIT_FILE}${scratch}`), code);
  await rename(join(KIT_DIST, `${KIT_FILE}${scratch}`), join(KIT_DIST, KIT_FILE));
  await writeFile(join(KIT_DIST, `${KIT_MANIFEST}${scratch}`), `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(join(KIT_DIST, `${KIT_MANIFEST}${scratch}`), join(KIT_DIST, KIT_MANIFEST));
  return manifest;
}

/** True when `dist/` holds a build of exactly the sources on disk now. */
export async function isKitBuildCurrent(): Promise<boolean> {
  const manifest = await readKitManifest();
  if (!manifest || !existsSync(join(KIT_DIST, KIT_FILE))) return false;
  return manifest.inputsHash === (await inputsHash());
}

/** Builds the kit when its sources changed since the last build (or there is none). Returns whether it built. */
export async function ensureKitBuilt(log: (line: string) => void = () => {}): Promise<boolean> {
  if (await isKitBuildCurrent()) return false;
  log('Building the browser kit…');
  await buildKit();
  return true;
}
