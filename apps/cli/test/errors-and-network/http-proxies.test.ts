/**
 * The CLI through HTTP proxies.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anon, apiKey, closeFakeServers, formId, forwardingProxy, server, startWorld, stopWorld } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);
afterEach(closeFakeServers);

describe('HTTP proxies', () => {
  it('goes through HTTP_PROXY, and not when NO_PROXY names the host', async () => {
    const proxy = await forwardingProxy(server.baseUrl);
    const env = { LFK_API_KEY: apiKey, LFK_BASE_URL: server.baseUrl, HTTP_PROXY: proxy.url };

    const proxied = await anon.lfk(['forms', 'get', formId, '--json'], { env });
    expect(proxied.code, proxied.stderr).toBe(0);
    expect(proxied.json.id).toBe(formId);
    expect(proxy.requests).toHaveLength(1);
    expect(proxy.requests[0]?.url.startsWith(`${server.baseUrl}/trpc/forms.get?`)).toBe(true);

    const direct = await anon.lfk(['forms', 'get', formId, '--json'], { env: { ...env, NO_PROXY: '127.0.0.1' } });
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.json.id).toBe(formId);
    expect(proxy.requests).toHaveLength(1);
  });
});
