/**
 * `lfk login --web`: the CLI shows a code and the page to approve it on, waits, and keeps the session
 * the person approved in the dashboard; a denial or a wrong combination of flags ends it clearly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '@lfk/server/testing';
import { newHome, server, startWorld, stopWorld } from './harness.ts';

beforeAll(() => startWorld({ owner: false }));
afterAll(stopWorld);

/** A person with a dashboard session: what approves or denies the CLI's request. */
async function person(): Promise<{ email: string; userId: string; token: string }> {
  const email = `web-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const res = await fetch(`${server.baseUrl}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = (await res.json()) as { user: { id: string }; session_token: string };
  return { email, userId: body.user.id, token: body.session_token };
}

/** The user code of the one pending request, once the CLI has made it (as the person reads it on screen). */
async function pendingCode(): Promise<string> {
  for (;;) {
    const rows = await server.sql<{ user_code: string }>("select user_code from device_logins where state = 'pending'");
    if (rows.length === 1) return `${rows[0]!.user_code.slice(0, 4)}-${rows[0]!.user_code.slice(4)}`;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function decide(code: string, decision: 'approve' | 'deny', token: string): Promise<void> {
  const res = await fetch(`${server.baseUrl}/v1/auth/device-logins/${code}/${decision}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
}

describe('lfk login --web', () => {
  it('prints the code and the page, waits for the approval, then is signed in as the person who approved', async () => {
    const approver = await person();
    const home = await newHome();
    const login = home.lfk(['login', '--web', '--no-browser', '--json'], { timeoutMs: 90_000 });
    const code = await pendingCode();
    await decide(code, 'approve', approver.token);
    const result = await login;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Your one-time code: ${code}`);
    // The page, and the code to type there: no link carries it.
    expect(result.stderr).toContain('Open http://lfk.test/device, signed in, and type this code there to approve it.');
    expect(result.stderr).not.toContain('?code=');
    // stdout is the API object alone, without the session token (which went to the config file).
    expect(result.json.user).toMatchObject({ id: approver.userId, email: approver.email });
    expect(result.stdout).not.toContain('lfs_');

    const whoami = await home.lfk(['whoami', '--json']);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.json.user.email).toBe(approver.email);
    const rows = await server.sql<{ device_name: string; state: string }>('select device_name, state from device_logins');
    expect(rows).toEqual([{ device_name: expect.stringMatching(/^lfk CLI on /), state: 'used' }]);
  });

  it('a denial ends it with exit 4 and saves nothing', async () => {
    const denier = await person();
    const home = await newHome();
    const login = home.lfk(['login', '--web', '--no-browser'], { timeoutMs: 90_000 });
    await decide(await pendingCode(), 'deny', denier.token);
    const result = await login;
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error: device_login_denied: The sign-in was denied in the browser.');
    const whoami = await home.lfk(['whoami']);
    expect(whoami.code).toBe(4);
  });

  it('--web with --email or --password-stdin is a usage error, before anything is asked of the server', async () => {
    const home = await newHome();
    const result = await home.lfk(['login', '--web', '--email', 'a@example.com']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('conflicting_flags');
    expect(await server.sql("select id from device_logins where state = 'pending'")).toEqual([]);
  });
});
