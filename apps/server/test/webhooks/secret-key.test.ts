/**
 * The key that seals stored secrets: LFK_SECRET_KEY, or on the embedded database one made at the
 * first start in its data directory and read back at every start after; required with DATABASE_URL.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@lfk/db';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { resolveSecretKey, SECRET_KEY_FILE } from '../../src/secret-key.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lfk-secret-key-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the secret key', () => {
  it('is made once in the embedded data directory, readable by its owner only, and the database still opens beside it', async () => {
    const dataDir = join(tempDir(), 'data');
    const db = await openDatabase({ dataDir });
    const first = await resolveSecretKey({ secretKey: undefined, databaseUrl: undefined, dataDir });
    await db.close();
    const file = join(dataDir, SECRET_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('hex'));
    const reopened = await openDatabase({ dataDir });
    await reopened.close();
    const again = await resolveSecretKey({ secretKey: undefined, databaseUrl: undefined, dataDir });
    expect(again.equals(first)).toBe(true);
  });

  it('refuses a data directory whose key file holds something else, rather than sealing under a new key', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, SECRET_KEY_FILE), 'not a key\n');
    await expect(resolveSecretKey({ secretKey: undefined, databaseUrl: undefined, dataDir })).rejects.toThrow(/does not hold a secret key/);
  });

  it('is LFK_SECRET_KEY when set (hex or base64), and required with DATABASE_URL', () => {
    const hex = 'ab'.repeat(32);
    expect(loadConfig({ LFK_SECRET_KEY: hex }).secretKey?.toString('hex')).toBe(hex);
    expect(loadConfig({ LFK_SECRET_KEY: Buffer.from(hex, 'hex').toString('base64') }).secretKey?.toString('hex')).toBe(hex);
    expect(() => loadConfig({ LFK_SECRET_KEY: 'short' })).toThrow(/LFK_SECRET_KEY: Must be 32 bytes/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1/lfk' })).toThrow(/LFK_SECRET_KEY: Required with DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1/lfk', LFK_SECRET_KEY: hex }).databaseUrl).toBeDefined();
  });
});
