/**
 * The CLI's answer to errors from the real server and from its config file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../harness.ts';
import { anon, apiKey, cleanups, closeFakeServers, expectFailure, firstLine, server, startWorld, stopWorld } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);
afterEach(closeFakeServers);

describe('errors from the real server and the config', () => {
  it('prints one line per validation detail', async () => {
    const result = await anon.lfk(['forms', 'create', '--name', 'Bad', '--field', '1bad:text'], {
      env: { LFK_API_KEY: apiKey, LFK_BASE_URL: server.baseUrl },
    });
    expectFailure(result, 1, 'invalid_request');
    const details = result.stderr.split('\n').filter((line) => /^ {2}\S+: /.test(line));
    expect(details.length).toBeGreaterThanOrEqual(1);
    expect(details.some((line) => line.startsWith('  schema.0.name: '))).toBe(true);
  });

  it('says to log in when there is no session', async () => {
    const result = await anon.lfk(['keys', 'list'], { env: { LFK_BASE_URL: server.baseUrl } });
    expectFailure(result, 4, 'not_signed_in');
    expect(firstLine(result.stderr)).toContain(server.baseUrl);
    expect(result.stderr.split('\n').slice(1).join('\n')).toContain('lfk login');
  });

  it('names a config file that is not JSON', async () => {
    const home = await tempHome({ LFK_BASE_URL: '' });
    cleanups.push(() => home.remove());
    await mkdir(dirname(home.configPath), { recursive: true, mode: 0o700 });
    await writeFile(home.configPath, '{not json', { mode: 0o600 });
    for (const args of [['whoami'], ['forms', 'get', 'form_x']]) {
      const result = await home.lfk(args, { env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: server.baseUrl } });
      expectFailure(result, 1, 'config_invalid');
      expect(firstLine(result.stderr)).toContain(home.configPath);
    }
  });
});
