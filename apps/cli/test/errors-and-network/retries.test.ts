/**
 * The CLI's retries: what is retried, how often, and what never is.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { tempHome } from '../harness.ts';
import {
  anon,
  answer503,
  apiKey,
  cleanups,
  closeFakeServers,
  expectFailure,
  fakeHttp,
  firstLine,
  forwardingProxy,
  server,
  startWorld,
  stopWorld,
} from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);
afterEach(closeFakeServers);

describe('retries', () => {
  const withKey = (url: string) => ({ env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: url } });

  it('sends a query three times to a server answering 503, with the key and the user agent', async () => {
    const fake = await fakeHttp(answer503);
    const result = await anon.lfk(['forms', 'get', 'form_x'], withKey(fake.url));
    expectFailure(result, 1, 'bad_response');
    expect(firstLine(result.stderr)).toContain('503');
    expect(fake.requests).toHaveLength(3);
    for (const request of fake.requests) {
      expect(request.method).toBe('GET');
      expect(request.path).toBe('/trpc/forms.get');
      expect(JSON.parse(new URL(request.url, fake.url).searchParams.get('input') ?? 'null')).toEqual({ form_id: 'form_x' });
      expect(request.headers.authorization).toBe('Bearer lfk_anything');
      expect(request.headers['user-agent']).toMatch(new RegExp(`^lfk-cli/${packageJson.version.replaceAll('.', '\\.')}( |$)`));
      expect(request.headers['idempotency-key']).toBeUndefined();
    }
  });

  it('sends a mutation without an idempotency key once', async () => {
    const fake = await fakeHttp(answer503);
    const result = await anon.lfk(['forms', 'update', 'form_x', '--name', 'y'], withKey(fake.url));
    expectFailure(result, 1, 'bad_response');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.method).toBe('POST');
    expect(fake.requests[0]?.path).toBe('/trpc/forms.update');
    expect(fake.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it.each([
    { what: 'forms create', args: ['forms', 'create', '--name', 'y', '--field', 'a:text'], path: '/trpc/forms.create' },
    { what: 'submissions create', args: ['submissions', 'create', 'form_x', '--data', 'a=b'], path: '/trpc/submissions.create' },
  ])('sends $what three times with the same Idempotency-Key and body', async ({ args, path }) => {
    const fake = await fakeHttp(answer503);
    const result = await anon.lfk(args, withKey(fake.url));
    expectFailure(result, 1, 'bad_response');
    expect(fake.requests).toHaveLength(3);
    const keys = fake.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[0]).not.toBe('');
    expect(new Set(keys).size).toBe(1);
    for (const request of fake.requests) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe(path);
      expect(request.body).toBe(fake.requests[0]?.body);
      expect(request.headers.authorization).toBe('Bearer lfk_anything');
    }
  });

  it('sends keys revoke three times, with the saved session', async () => {
    // The key is looked up first (to name it in the question); the revoke itself meets the 503s.
    const fake = await fakeHttp((req, res) => {
      if (!req.url?.startsWith('/trpc/apiKeys.list')) return answer503(req, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { data: { data: [], next_cursor: null } } }));
    });
    const home = await tempHome({ LFK_BASE_URL: '' });
    cleanups.push(() => home.remove());
    await mkdir(dirname(home.configPath), { recursive: true, mode: 0o700 });
    await writeFile(home.configPath, JSON.stringify({ servers: { [fake.url]: { session_token: 'lfs_x', workspace_id: 'ws_x' } } }), {
      mode: 0o600,
    });
    const result = await home.lfk(['keys', 'revoke', 'key_x', '--yes', '--base-url', fake.url]);
    expectFailure(result, 1, 'bad_response');
    const revokes = fake.requests.filter((request) => request.path !== '/trpc/apiKeys.list');
    expect(revokes).toHaveLength(3);
    for (const request of revokes) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/trpc/apiKeys.revoke');
      expect(request.headers.authorization).toBe('Bearer lfs_x');
      expect(JSON.parse(request.body)).toEqual({ workspace_id: 'ws_x', key_id: 'key_x' });
    }
  });

  it('does not ask again when lfk answers with its JSON error', async () => {
    const fake = await fakeHttp((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'x', code: -32004, data: { code: 'form_not_found', message: 'No such form.', httpStatus: 404 } },
        }),
      );
    });
    const result = await anon.lfk(['forms', 'get', 'form_x'], withKey(fake.url));
    expectFailure(result, 1, 'form_not_found');
    expect(firstLine(result.stderr)).toBe('error: form_not_found: No such form.');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not ask the real server again for a form that does not exist', async () => {
    const proxy = await forwardingProxy(server.baseUrl);
    const result = await anon.lfk(['forms', 'get', 'form_doesnotexist'], { env: { LFK_API_KEY: apiKey, LFK_BASE_URL: proxy.url } });
    expectFailure(result, 1, 'form_not_found');
    expect(proxy.requests).toHaveLength(1);
    expect(proxy.requests[0]?.path).toBe('/trpc/forms.get');
  });
});
