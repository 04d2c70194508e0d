import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Home, type LfkResult, newHome, owner, ownerEmail, PASSWORD, server, startWorld, stopWorld } from './harness.ts';

// What a script can tell from the exit code alone, and what --json prints when a command fails:
// the error object on stderr, parseable as JSON, and nothing on stdout.

let stranger: Home;

beforeAll(async () => {
  // Logins are limited to 2 a minute from one address, so the third is rate limited.
  await startWorld({ env: { LFK_RATE_LIMIT_LOGIN: '2/1m' } });
  stranger = await newHome();
});

afterAll(stopWorld);

/** The JSON error a failed --json command printed, after checking it is alone on stderr. */
function jsonError(result: LfkResult): { code: string; message: string; [field: string]: unknown } {
  expect(result.stdout, result.stdout).toBe('');
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!);
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(parsed.error.code).toEqual(expect.any(String));
  expect(parsed.error.message).toEqual(expect.any(String));
  return parsed.error;
}

describe('exit codes and --json errors', () => {
  it('2: a usage error', async () => {
    const human = await owner.lfk(['keys', 'nope']);
    expect(human.code).toBe(2);
    expect(human.stderr).toMatch(/^error: unknown_command: /);
    const json = await owner.lfk(['keys', 'nope', '--json']);
    expect(json.code).toBe(2);
    expect(jsonError(json)).toMatchObject({ code: 'unknown_command' });
    const badFlag = await owner.lfk(['forms', 'create', '--mode', 'sideways', '--json']);
    expect(badFlag.code).toBe(2);
    expect(jsonError(badFlag)).toMatchObject({ code: 'invalid_argument' });
  });

  it('4: not signed in, with the server named', async () => {
    const result = await stranger.lfk(['keys', 'list', '--json']);
    expect(result.code).toBe(4);
    const error = jsonError(result);
    expect(error).toMatchObject({ code: 'not_signed_in', message: `Not signed in to ${server.baseUrl}.` });
    expect(error.hint).toEqual(expect.stringContaining('lfk login'));
  });

  it('4: credentials refused — a wrong password, an unknown API key', async () => {
    const login = await stranger.lfk(['login', '--email', ownerEmail, '--password-stdin', '--json'], { input: 'not the password\n' });
    expect(login.code).toBe(4);
    expect(jsonError(login)).toMatchObject({ code: 'invalid_credentials', request_id: expect.any(String) });
    const key = await stranger.lfk(['forms', 'get', 'form_x', '--json'], { env: { LFK_API_KEY: `lfk_${'A'.repeat(36)}` } });
    expect(key.code).toBe(4);
    expect(jsonError(key)).toMatchObject({ code: 'invalid_api_key' });
  });

  it('1: the API refused what was asked (not found), with the request id', async () => {
    const result = await owner.lfk(['forms', 'get', 'form_00000000000000000000000000', '--json']);
    expect(result.code).toBe(1);
    expect(jsonError(result)).toMatchObject({ code: 'form_not_found', request_id: expect.any(String) });
  });

  it('1: the server cannot be reached', async () => {
    const result = await stranger.lfk(['keys', 'list', '--json', '--base-url', 'http://127.0.0.1:1']);
    // Not signed in to that server is found before any request is made.
    expect(result.code).toBe(4);
    const network = await stranger.lfk(['forms', 'get', 'form_x', '--json', '--base-url', 'http://127.0.0.1:1'], {
      env: { LFK_API_KEY: 'lfk_anything' },
    });
    expect(network.code).toBe(1);
    expect(jsonError(network)).toMatchObject({ code: 'network_error' });
  });

  it('5: rate limited, with retry_after in seconds', async () => {
    const login = (json: boolean) =>
      stranger.lfk(['login', '--email', ownerEmail, '--password-stdin', ...(json ? ['--json'] : [])], { input: `${PASSWORD}\n` });
    // Sign-up and the wrong password above spent this address's two logins; at most one more may pass.
    let result = await login(true);
    if (result.code === 0) result = await login(true);
    expect(result.code).toBe(5);
    const error = jsonError(result);
    expect(error.code).toBe('rate_limited');
    expect(error.retry_after).toEqual(expect.any(Number));
    expect(error.retry_after as number).toBeGreaterThanOrEqual(1);
    expect(error.message).toMatch(/Retry in \d+ seconds?/);
    const human = await login(false);
    expect(human.code).toBe(5);
    expect(human.stderr).toMatch(/^error: rate_limited: /);
  });

  it('0 and a clean stderr on success, with --json', async () => {
    const result = await owner.lfk(['keys', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).data).toEqual(expect.any(Array));
  });

  it('the exit codes are listed in --help', async () => {
    const help = await owner.lfk(['--help']);
    expect(help.code).toBe(0);
    for (const line of [/^ {2}0 +success/m, /^ {2}2 +usage/m, /^ {2}3 +cancelled/m, /^ {2}4 +not signed in/m, /^ {2}5 +rate limited/m]) {
      expect(help.stdout).toMatch(line);
    }
  });
});
