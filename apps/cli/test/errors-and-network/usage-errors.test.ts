/**
 * CLI usage errors: what is wrong with the command line, said before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { anon, expectFailure, firstLine, owner, STACK_LINE, startWorld, stopWorld } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);

describe('usage errors', () => {
  it('with no arguments prints the help on stderr and exits 2', async () => {
    const result = await anon.lfk([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: lfk');
    expect(result.stderr).toContain('Commands:');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('rejects an unknown command', async () => {
    const result = await anon.lfk(['nope']);
    expectFailure(result, 2, 'unknown_command');
    expect(firstLine(result.stderr)).toContain("'nope'");
  });

  it('suggests the command a typo was meant to be', async () => {
    const result = await anon.lfk(['kyes']);
    expectFailure(result, 2, 'unknown_command');
    expect(result.stderr).toMatch(/Did you mean keys\?/);
  });

  it('reads the command past the global options and their values, as their parser does', async () => {
    const listed = await owner.lfk(['--timeout', '5', '--no-headers', 'keys', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ data: expect.any(Array) });
    // `keys` is --workspace's value here, so the command is `list`, which does not exist.
    const taken = await anon.lfk(['--workspace', 'keys', 'list']);
    expectFailure(taken, 2, 'unknown_command');
    expect(firstLine(taken.stderr)).toContain("'list'");
  });

  it('rejects an unknown option', async () => {
    const result = await anon.lfk(['keys', 'list', '--bogus']);
    expectFailure(result, 2, 'unknown_option');
    expect(firstLine(result.stderr)).toContain('--bogus');
  });

  it('rejects a missing argument', async () => {
    const result = await anon.lfk(['forms', 'get']);
    expectFailure(result, 2, 'missing_argument');
    expect(firstLine(result.stderr)).toContain('form_id');
  });

  it('rejects a --mode outside its choices', async () => {
    const result = await anon.lfk(['forms', 'create', '--name', 'x', '--field', 'a:text', '--mode', 'sideways']);
    expectFailure(result, 2, 'invalid_argument');
    expect(firstLine(result.stderr)).toContain('sideways');
    expect(firstLine(result.stderr)).toContain('browser');
    expect(firstLine(result.stderr)).toContain('api_key');
  });

  it('rejects --limit 0 and --limit abc without asking the server', async () => {
    for (const limit of ['0', 'abc']) {
      const result = await owner.lfk(['keys', 'list', '--limit', limit]);
      expectFailure(result, 2, 'invalid_limit');
    }
  });

  it('rejects a base URL that is not http(s)', async () => {
    const result = await anon.lfk(['--base-url', 'ftp://x', 'forms', 'get', 'form_x'], { env: { LFK_API_KEY: 'lfk_anything' } });
    expectFailure(result, 2, 'invalid_base_url');
  });

  it('rejects a negative or zero --timeout', async () => {
    for (const timeout of ['-1', '0']) {
      const result = await anon.lfk(['--timeout', timeout, 'forms', 'get', 'form_x'], { env: { LFK_API_KEY: 'lfk_anything' } });
      expectFailure(result, 2, 'invalid_timeout');
    }
  });

  it("prints a group's help on stderr and exits 2 when the group is named without a command", async () => {
    const result = await anon.lfk(['keys']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: lfk keys');
    for (const command of ['create', 'list', 'revoke']) expect(result.stderr).toContain(command);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('prints the package version with --version', async () => {
    const result = await anon.lfk(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(packageJson.version);
    expect(result.stderr).toBe('');
  });

  it("prints a group's help with examples on stdout for --help", async () => {
    const result = await anon.lfk(['forms', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: lfk forms');
    expect(result.stdout).toContain('Examples:');
    expect(result.stderr).toBe('');
  });
});
