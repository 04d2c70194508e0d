/**
 * The real bin, outside a terminal: the path the in-process tests skip (bin/lfk.js with its Node
 * check and source hook, main.ts setting the exit code). The rest of the suite calls `run` itself.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { owner, startWorld, stopWorld } from './harness.ts';

beforeAll(() => startWorld());
afterAll(stopWorld);

it('runs a command to the end and exits with its code: 0 and JSON on stdout, 2 for a usage error', async () => {
  const created = await owner.spawn(['keys', 'create', '--name', 'through the bin', '--json']);
  expect(created.code, created.stderr).toBe(0);
  expect(created.json).toMatchObject({ name: 'through the bin', key: expect.stringMatching(/^lfk_/) });

  const listed = await owner.spawn(['keys', 'list', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.json.data.map((k: { name: string }) => k.name)).toContain('through the bin');

  const unknown = await owner.spawn(['no-such-command']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toMatch(/^error: unknown_command: /);
  expect(unknown.stdout).toBe('');
});
