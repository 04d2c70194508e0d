/**
 * At a terminal: help and version.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Home } from '../harness.ts';
import { ESC, newHome, startWorld, stopWorld } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);

describe('help and version', () => {
  let home: Home;
  beforeAll(async () => {
    home = await newHome();
  });

  it.each([[[]], [['workspaces']], [['keys']], [['forms']], [['submissions']]])('lfk %j --help has examples', async (group) => {
    const result = await home.lfk([...group, '--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('$ lfk ');
    expect(result.stdout).not.toMatch(ESC);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'));
    const result = await home.lfk(['--version']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });
});
