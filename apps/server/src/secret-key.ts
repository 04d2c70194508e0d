import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newSecretKey, parseSecretKey } from '@lfk/api';
import type { Config } from './config.ts';

/** Where the embedded database's server keeps its key when `LFK_SECRET_KEY` is not set. */
export const SECRET_KEY_FILE = 'lfk-secret-key';

/**
 * The key that seals stored secrets: `LFK_SECRET_KEY`, or on the embedded database one kept in
 * its data directory (made on first start, readable by its owner only), so a restart opens what
 * the last run sealed. A throwaway in-memory database gets a throwaway key. With `DATABASE_URL`
 * the configuration requires `LFK_SECRET_KEY` (every replica needs the same one).
 */
export async function resolveSecretKey(config: Pick<Config, 'secretKey' | 'databaseUrl' | 'dataDir'>): Promise<Buffer> {
  if (config.secretKey) return config.secretKey;
  if (config.databaseUrl) throw new Error('LFK_SECRET_KEY is required with DATABASE_URL.');
  if (config.dataDir.startsWith('memory://')) return randomBytes(32);
  const file = join(config.dataDir, SECRET_KEY_FILE);
  for (;;) {
    try {
      const key = parseSecretKey(await readFile(file, 'utf8'));
      if (key === null) throw new Error(`${file} does not hold a secret key (64 hex digits); set LFK_SECRET_KEY or restore the file.`);
      return key;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    try {
      // `wx`: two servers starting on one directory at once keep whichever key was written first.
      await writeFile(file, `${newSecretKey()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
