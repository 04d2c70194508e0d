import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Home, type LfkServerUnderTest, signupWithCli, startServer, tempHome } from './harness.ts';

// Issue 14 at the terminal: keys create --expires-in, keys roll (with --grace), keys get, keys usage,
// and keys list showing expiry, last use and where from; --json prints the API objects.

let server: LfkServerUnderTest;
let owner: Home;

beforeAll(async () => {
  server = await startServer();
  owner = await tempHome();
  await signupWithCli(owner, server);
});
afterAll(async () => {
  await server?.close();
  await owner?.remove();
});

const useKey = (key: string) =>
  fetch(`${server.baseUrl}/v1/forms/form_01jzzzzzzzzzzzzzzzzzzzzzzz`, { headers: { authorization: `Bearer ${key}`, 'user-agent': 'deploy-script/2.0' } });

describe('keys: expiry, roll, get, usage', () => {
  it('create --expires-in sets an expiry the list and get show; a bad duration is a usage error', async () => {
    const before = Date.now();
    const created = await owner.lfk(['keys', 'create', '--name', 'monthly', '--expires-in', '30d', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const expiresAt = Date.parse(created.json.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);

    const got = await owner.lfk(['keys', 'get', created.json.id]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain(`expires\t${created.json.expires_at}`);
    expect(got.stdout).toContain('status\tactive');

    const bad = await owner.lfk(['keys', 'create', '--expires-in', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: invalid_duration: --expires-in/);
    const tooLong = await owner.lfk(['keys', 'create', '--expires-in', '400d']);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/^error: invalid_request: /);
  });

  it('roll --grace prints the new key alone on stdout; both work meanwhile; without a grace it asks first', async () => {
    const old = await owner.lfk(['keys', 'create', '--name', 'worker', '--json']);
    const rolled = await owner.lfk(['keys', 'roll', old.json.id, '--grace', '24h']);
    expect(rolled.code, rolled.stderr).toBe(0);
    const newKey = rolled.stdout.trim();
    expect(newKey).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    expect(rolled.stderr).toContain('cannot be shown again');
    expect((await useKey(old.json.key)).status).toBe(404);
    expect((await useKey(newKey)).status).toBe(404);
    const oldNow = await owner.lfk(['keys', 'get', old.json.id, '--json']);
    expect(oldNow.json).toMatchObject({ status: 'active', rolled_to: expect.stringMatching(/^key_/) });
    const inGrace = await owner.lfk(['keys', 'list']);
    expect(inGrace.stdout).toMatch(new RegExp(`^${old.json.id}\\t[^\\t]*\\t[^\\t]+\\tactive \\(replaced\\)\\t`, 'm'));

    const again = await owner.lfk(['keys', 'roll', old.json.id, '--grace', '1h']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: api_key_already_rolled: /);

    const unconfirmed = await owner.lfk(['keys', 'roll', oldNow.json.rolled_to]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('prompt_unavailable');
    const atOnce = await owner.lfk(['keys', 'roll', oldNow.json.rolled_to, '--yes', '--json']);
    expect(atOnce.code, atOnce.stderr).toBe(0);
    expect(atOnce.json).toMatchObject({ name: 'worker', status: 'active', key: expect.stringMatching(/^lfk_/) });
    expect((await useKey(newKey)).status).toBe(401);
    const list = await owner.lfk(['keys', 'list']);
    // Said as a person says it: the rolled key was replaced, and a stopped key shows no expiry.
    expect(list.stdout).toMatch(new RegExp(`^${oldNow.json.rolled_to}\\tworker\\t[^\\t]+\\treplaced\\t-\\t`, 'm'));
    // A roll may choose the new key's lifetime.
    const chosen = await owner.lfk(['keys', 'roll', atOnce.json.id, '--yes', '--expires-in', '30d', '--json']);
    expect(chosen.code, chosen.stderr).toBe(0);
    const days = (Date.parse(chosen.json.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('usage counts the requests once written; list and get show where the key was last used from', async () => {
    const created = await owner.lfk(['keys', 'create', '--name', 'counted', '--json']);
    for (let i = 0; i < 3; i++) expect((await useKey(created.json.key)).status).toBe(404);
    await server.server.services.keyUses.flush();
    const usage = await owner.lfk(['keys', 'usage', created.json.id, '--days', '2', '--json']);
    expect(usage.code, usage.stderr).toBe(0);
    expect(usage.json.data).toHaveLength(2);
    expect(usage.json.data[1]).toEqual({
      date: new Date().toISOString().slice(0, 10),
      requests: 3,
      refused: { revoked: 0, expired: 0, rolled: 0, leaked: 0, address_not_allowed: 0 },
    });
    const human = await owner.lfk(['keys', 'usage', created.json.id, '--days', '2']);
    expect(human.stdout.trim().split('\n').at(-1)).toMatch(/^\d{4}-\d\d-\d\d\t3\t0\t\t█+$/);
    expect(human.stderr).toContain('3 requests and 0 refused in 2 days.');
    const got = await owner.lfk(['keys', 'get', created.json.id]);
    expect(got.stdout).toContain('from address\t127.0.0.1');
    expect(got.stdout).toContain('user agent\tdeploy-script/2.0');
    const list = await owner.lfk(['keys', 'list']);
    expect(list.stdout).toMatch(new RegExp(`^${created.json.id}\\tcounted\\t[^\\t]+\\tactive\\tnever\\t3\\t[^\\t]+Z\\t127\\.0\\.0\\.1\\t`, 'm'));
    const badDays = await owner.lfk(['keys', 'usage', created.json.id, '--days', 'lots']);
    expect(badDays.code).toBe(2);
  });
});

// Issue 28 at the terminal: keys create --allow-ip, keys update, and usage and list with refusals.
describe('keys: where a key may be used, and who still tries it', () => {
  it('create --allow-ip limits the key; get shows it; a request from elsewhere is refused and counted', async () => {
    const created = await owner.lfk([
      'keys',
      'create',
      '--name',
      'elsewhere',
      '--description',
      'build host',
      '--allow-ip',
      '192.0.2.0/24',
      '--allow-ip',
      '2001:DB8::1',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({ description: 'build host', allowed_ips: ['192.0.2.0/24', '2001:db8::1'] });
    // This test's requests come from 127.0.0.1: not on the list.
    expect((await useKey(created.json.key)).status).toBe(401);
    await server.server.services.keyUses.flush();

    const got = await owner.lfk(['keys', 'get', created.json.id]);
    expect(got.stdout).toContain('allowed from\t192.0.2.0/24, 2001:db8::1');
    expect(got.stdout).toContain('description\tbuild host');
    expect(got.stdout).toContain('today\t0 requests, 1 refused');
    const usage = await owner.lfk(['keys', 'usage', created.json.id, '--days', '1']);
    expect(usage.stdout.trim().split('\n').at(-1)).toMatch(/^\d{4}-\d\d-\d\d\t0\t1\taddress not allowed 1\t░+$/);

    const bad = await owner.lfk(['keys', 'create', '--allow-ip', 'example.com']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: invalid_request: /);
    expect(bad.stderr).toContain('allowed_ips.0');
  });

  it('update renames, describes and moves a key; --any-ip lifts the list; nothing to change is a usage error', async () => {
    const created = await owner.lfk(['keys', 'create', '--name', 'before', '--allow-ip', '192.0.2.1', '--json']);
    expect((await useKey(created.json.key)).status).toBe(401);
    const moved = await owner.lfk(['keys', 'update', created.json.id, '--name', 'after', '--description', 'moved home', '--allow-ip', '127.0.0.1']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(`Updated ${created.json.id} (after): usable from 127.0.0.1.`);
    expect((await useKey(created.json.key)).status).toBe(404);

    const anywhere = await owner.lfk(['keys', 'update', created.json.id, '--any-ip', '--no-description', '--json']);
    expect(anywhere.code, anywhere.stderr).toBe(0);
    expect(anywhere.json).toMatchObject({ name: 'after', description: null, allowed_ips: null });

    const nothing = await owner.lfk(['keys', 'update', created.json.id]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/^error: nothing_to_update: /);
    const both = await owner.lfk(['keys', 'update', created.json.id, '--any-ip', '--allow-ip', '127.0.0.1']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: conflicting_flags: /);
  });

  it('list says a revoked key is still being tried', async () => {
    const created = await owner.lfk(['keys', 'create', '--name', 'forgotten', '--json']);
    expect((await owner.lfk(['keys', 'revoke', created.json.id, '--yes'])).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await useKey(created.json.key)).status).toBe(401);
    await server.server.services.keyUses.flush();
    const list = await owner.lfk(['keys', 'list']);
    expect(list.stdout).toMatch(new RegExp(`^${created.json.id}\\tforgotten\\t[^\\t]+\\trevoked\\t-\\tstill tried 3 times\\t`, 'm'));
  });
});
