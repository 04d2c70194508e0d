// The owner's whole flow through the CLI (in process, as the bin runs it) against the real server: sign up, sign in and out,
// API keys (and their limit), workspaces and how one is chosen, where the base URL comes from, and
// what a mere member may not do. Each step checks what a person sees (exit code, stdout, stderr,
// --json) and what was stored (the server's database, the config file, or a later CLI read).
//
// The steps share one server and build on each other (the owner signed up in the first is the one
// who creates keys and workspaces later), so they run in order.
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { freePort, linkTokenSentTo } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Home, type LfkServerUnderTest, PASSWORD, signupWithCli, startServer, tempHome } from './harness.ts';

let server: LfkServerUnderTest;
const homes: Home[] = [];

async function newHome(): Promise<Home> {
  const home = await tempHome();
  homes.push(home);
  return home;
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
  for (const home of homes) await home.remove();
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function readConfigFile(home: Home): Promise<any> {
  return JSON.parse(await readFile(home.configPath, 'utf8'));
}

/** What the config file holds for the server under test. */
async function profileOf(home: Home): Promise<any> {
  return (await readConfigFile(home)).servers[server.baseUrl];
}

/** A call to the REST API as a signed-in person, outside the CLI (to set things up). */
async function restAs(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const idsOf = (list: any) => (list.data as { id: string }[]).map((item) => item.id).sort();

describe('the owner flow', () => {
  const ownerEmail = 'owner.flow@example.com';
  let owner: Home;
  let personalId: string;
  let secondId: string;

  it('signs up with --password-stdin: a human summary, and a private config file holding the session', async () => {
    owner = await newHome();
    const result = await owner.lfk(['signup', '--email', ownerEmail, '--name', 'Olive', '--password-stdin'], {
      input: `${PASSWORD}\n`,
      env: { LFK_BASE_URL: server.baseUrl },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    const [user] = await server.sql<{ id: string }>('select id from users where email = ?', [ownerEmail]);
    expect(user).toBeDefined();
    const memberships = await server.sql<{ workspace_id: string; role: string }>('select workspace_id, role from memberships where user_id = ?', [user!.id]);
    expect(memberships).toHaveLength(1);
    expect(memberships[0]!.role).toBe('owner');
    personalId = memberships[0]!.workspace_id;

    expect(result.stdout).toContain(`Signed up to ${server.baseUrl} as ${ownerEmail}.`);
    expect(result.stdout).toContain(`Your workspace Olive's workspace (${personalId}) is now the default.`);
    expect(result.stdout).toContain(`Confirm your address with the link just emailed to ${ownerEmail}`);
    // …which the owner does, as the later steps (keys) need.
    const confirmation = await linkTokenSentTo(server, ownerEmail, 'account_verification');
    expect((await fetch(`${server.baseUrl}/v1/email-verifications/${confirmation}`, { method: 'POST' })).status).toBe(200);

    // The config file and its directory are the owner's alone.
    expect((await stat(owner.configPath)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(owner.configPath))).mode & 0o777).toBe(0o700);
    const config = await readConfigFile(owner);
    expect(config.base_url).toBe(server.baseUrl);
    expect(Object.keys(config.servers)).toEqual([server.baseUrl]);
    const profile = config.servers[server.baseUrl];
    expect(profile.user_email).toBe(ownerEmail);
    expect(profile.workspace_id).toBe(personalId);
    expect(profile.session_token).toEqual(expect.any(String));

    // The saved token is a live session of this user on the server, and was never printed.
    const sessions = await server.sql<{ user_id: string; revoked_at: unknown }>('select user_id, revoked_at from sessions where token_hash = ?', [
      sha256(profile.session_token),
    ]);
    expect(sessions).toEqual([{ user_id: user!.id, revoked_at: null }]);
    expect(result.stdout).not.toContain(profile.session_token);
  });

  it('whoami shows the signed-in email, as text and as --json', async () => {
    // No LFK_BASE_URL now: the server comes from the config file.
    const human = await owner.lfk(['whoami']);
    expect(human.code).toBe(0);
    expect(human.stderr).toBe('');
    expect(human.stdout).toMatch(new RegExp(`^acting as\\s+${escapeRegExp(ownerEmail)} \\(usr_`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^server\\s+${escapeRegExp(server.baseUrl)}$`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^workspace\\s+${personalId}$`, 'm'));

    const json = await owner.lfk(['whoami', '--json']);
    expect(json.code).toBe(0);
    expect(json.json.user.email).toBe(ownerEmail);
    expect(Number.isNaN(Date.parse(json.json.expires_at))).toBe(false);
  });

  it('signup --json prints the user and workspace but never the session token', async () => {
    const home = await newHome();
    const email = 'json.signup@example.com';
    const result = await home.lfk(['signup', '--email', email, '--password-stdin', '--json'], {
      input: `${PASSWORD}\n`,
      env: { LFK_BASE_URL: server.baseUrl },
    });
    expect(result.code).toBe(0);
    expect(result.json.user.email).toBe(email);
    expect(result.json.workspace.id).toMatch(/^ws_/);
    expect(result.json.workspace.role).toBe('owner');
    expect(result.stdout).not.toContain('session_token');

    const profile = await profileOf(home);
    expect(profile.workspace_id).toBe(result.json.workspace.id);
    expect(result.stdout).not.toContain(profile.session_token);
    const stored = await server.sql('select role from memberships where workspace_id = ? and user_id = ?', [result.json.workspace.id, result.json.user.id]);
    expect(stored).toEqual([{ role: 'owner' }]);
  });

  it('a session is good for every name of this machine: signed up at 127.0.0.1, signed in at localhost', async () => {
    const home = await newHome();
    const { email } = await signupWithCli(home, server);
    const port = new URL(server.baseUrl).port;
    for (const alias of [`http://localhost:${port}`, `http://LOCALHOST:${port}/`]) {
      const whoami = await home.lfk(['whoami', '--json', '--base-url', alias]);
      expect(whoami.code, `${alias}: ${whoami.stderr}`).toBe(0);
      expect(whoami.json.user.email).toBe(email);
    }
    // Another port is another server.
    const other = await home.lfk(['whoami', '--base-url', 'http://localhost:1']);
    expect(other.code).toBe(4);
    expect(other.stderr).toContain('error: not_signed_in: Not signed in to http://localhost:1.');
    expect(other.stderr).toContain('That server is --base-url.');
  });

  it('with nothing set, the server is http://127.0.0.1:3000 (as npm start prints it), and the error says it is the default', async () => {
    const home = await newHome();
    const result = await home.lfk(['keys', 'list']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error: not_signed_in: Not signed in to http://127.0.0.1:3000.');
    expect(result.stderr).toContain('That server is the default.');
  });

  it('whoami without a session exits 4 with not_signed_in', async () => {
    const home = await newHome();
    const result = await home.lfk(['whoami'], { env: { LFK_BASE_URL: server.baseUrl } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`error: not_signed_in: Not signed in to ${server.baseUrl}.`);
    expect(result.stderr).toContain("Run 'lfk login'");
  });

  let ciKeyId: string;
  let deployKeyId: string;

  it('keys create prints the key alone on stdout, warns on stderr, and never writes the key to disk', async () => {
    const human = await owner.lfk(['keys', 'create', '--name', 'ci']);
    expect(human.code).toBe(0);
    const key = human.stdout.trim();
    expect(key).toMatch(/^lfk_\S+$/);
    expect(human.stderr).toContain('cannot be shown again');
    expect(human.stderr).not.toContain(key);

    // Stored as its hash (and display prefix), in the owner's one workspace.
    const [row] = await server.sql<{ id: string; workspace_id: string; name: string; prefix: string; revoked_at: unknown }>(
      'select id, workspace_id, name, prefix, revoked_at from api_keys where key_hash = ?',
      [sha256(key)],
    );
    expect(row).toMatchObject({ workspace_id: personalId, name: 'ci', revoked_at: null });
    expect(key.startsWith(row!.prefix)).toBe(true);
    expect(human.stderr).toContain(row!.id);
    ciKeyId = row!.id;

    const json = await owner.lfk(['keys', 'create', '--name', 'deploy', '--json']);
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ name: 'deploy', status: 'active', workspace_id: personalId });
    expect(json.json.id).toMatch(/^key_/);
    expect(json.json.key).toMatch(/^lfk_\S+$/);
    expect(json.json.key.startsWith(json.json.prefix)).toBe(true);
    deployKeyId = json.json.id;

    const configText = await readFile(owner.configPath, 'utf8');
    expect(configText).not.toContain(key);
    expect(configText).not.toContain(json.json.key);
  });

  it('keys list shows the keys: tab-separated rows through a pipe, the API page (without plaintext keys) for --json', async () => {
    const human = await owner.lfk(['keys', 'list']);
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    // The column names, then one line per key.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('ID\tNAME\tPREFIX\tSTATUS\tEXPIRES\tTODAY\tLAST USED\tFROM\tCREATED');
    const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const row = (id: string) => lines.find((line) => line.startsWith(id))?.split('\t');
    // ID, NAME, PREFIX, STATUS, EXPIRES, LAST USED, FROM, CREATED
    expect(row(ciKeyId)).toEqual([ciKeyId, 'ci', expect.stringMatching(/^lfk_[0-9A-Za-z]{6}…$/), 'active', 'never', '', 'never', '', iso]);
    expect(row(deployKeyId)).toEqual([deployKeyId, 'deploy', expect.stringMatching(/^lfk_[0-9A-Za-z]{6}…$/), 'active', 'never', '', 'never', '', iso]);

    const json = await owner.lfk(['keys', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(idsOf(json.json)).toEqual([ciKeyId, deployKeyId].sort());
    expect(json.json.next_cursor).toBeNull();
    for (const item of json.json.data) {
      expect(item.prefix).toMatch(/^lfk_/);
      expect(item.status).toBe('active');
      expect(item).not.toHaveProperty('key');
    }
  });

  it('keys revoke asks first (exit 2 without a terminal), revokes with --yes, and is idempotent', async () => {
    const unconfirmed = await owner.lfk(['keys', 'revoke', ciKeyId]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('error: prompt_unavailable:');
    expect(unconfirmed.stderr).toContain('--yes');
    const [stillActive] = await server.sql<{ revoked_at: unknown }>('select revoked_at from api_keys where id = ?', [ciKeyId]);
    expect(stillActive?.revoked_at).toBeNull();

    const revoked = await owner.lfk(['keys', 'revoke', ciKeyId, '--yes', '--json']);
    expect(revoked.code).toBe(0);
    // --json: the key after the revoke, as the list shows it.
    expect(revoked.json).toMatchObject({ id: ciKeyId, status: 'revoked', revoked_at: expect.any(String) });
    const [row] = await server.sql<{ revoked_at: unknown }>('select revoked_at from api_keys where id = ?', [ciKeyId]);
    expect(row?.revoked_at).not.toBeNull();

    const list = await owner.lfk(['keys', 'list', '--json']);
    const byId = Object.fromEntries(list.json.data.map((k: any) => [k.id, k]));
    expect(byId[ciKeyId].status).toBe('revoked');
    expect(Number.isNaN(Date.parse(byId[ciKeyId].revoked_at))).toBe(false);
    expect(byId[deployKeyId]).toMatchObject({ status: 'active', revoked_at: null });

    // Again: nothing to do, and no error; it says so, and --json prints the key as it stands.
    const again = await owner.lfk(['keys', 'revoke', ciKeyId, '-y', '--json']);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ id: ciKeyId, name: 'ci', status: 'revoked', revoked_at: byId[ciKeyId].revoked_at });
    expect(again.json.key).toBeUndefined();
    expect(again.stderr).toBe('');
    const human = await owner.lfk(['keys', 'revoke', ciKeyId, '-y']);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(`${ciKeyId} was already revoked.\n`);
  });

  it('keys revoke of a key that is not in the workspace exits 1 with api_key_not_found', async () => {
    const unknown = await owner.lfk(['keys', 'revoke', 'key_unknown', '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('error: api_key_not_found: No such API key.');

    // A real key of someone else's workspace is just as unknown here, and stays active.
    const other = await newHome();
    const stranger = await signupWithCli(other, server, { email: 'stranger@example.com' });
    const created = await restAs((await profileOf(other)).session_token, 'POST', `/v1/workspaces/${stranger.workspaceId}/api-keys`, {
      name: 'theirs',
    });
    expect(created.status).toBe(201);
    const theirs = await owner.lfk(['keys', 'revoke', created.body.id, '--yes']);
    expect(theirs.code).toBe(1);
    expect(theirs.stderr).toContain('error: api_key_not_found:');
    const [row] = await server.sql<{ revoked_at: unknown }>('select revoked_at from api_keys where id = ?', [created.body.id]);
    expect(row?.revoked_at).toBeNull();
  });

  it('an 11th active key is refused with api_key_limit_reached and its hint', async () => {
    const home = await newHome();
    const { workspaceId } = await signupWithCli(home, server, { email: 'limit@example.com' });
    const token = (await profileOf(home)).session_token as string;
    for (let i = 1; i <= 9; i++) {
      const made = await restAs(token, 'POST', `/v1/workspaces/${workspaceId}/api-keys`, { name: `k${i}` });
      expect(made.status).toBe(201);
    }
    const tenth = await home.lfk(['keys', 'create', '--name', 'tenth', '--json']);
    expect(tenth.code).toBe(0);
    expect(tenth.json.status).toBe('active');

    const eleventh = await home.lfk(['keys', 'create', '--name', 'eleventh']);
    expect(eleventh.code).toBe(1);
    expect(eleventh.stdout).toBe('');
    expect(eleventh.stderr).toContain('error: api_key_limit_reached: The workspace already has 10 active API keys. Revoke one first.');
    expect(eleventh.stderr).toContain("List the keys with 'lfk keys list' and revoke one with 'lfk keys revoke <key_id>'.");
    const active = await server.sql<{ name: string }>('select name from api_keys where workspace_id = ? and revoked_at is null', [workspaceId]);
    expect(active).toHaveLength(10);
    expect(active.map((k) => k.name)).not.toContain('eleventh');
  });

  it('workspaces list marks the default; workspaces create adds one without making it the default', async () => {
    const created = await owner.lfk(['workspaces', 'create', 'Second']);
    expect(created.code).toBe(0);
    const match = created.stdout.match(/Created workspace Second \((ws_\S+)\)\./);
    expect(match).not.toBeNull();
    secondId = match![1]!;
    expect(created.stdout).toContain(`Make it the default with 'lfk workspaces use ${secondId}'.`);
    expect((await profileOf(owner)).workspace_id).toBe(personalId);
    const [membership] = await server.sql('select role from memberships where workspace_id = ?', [secondId]);
    expect(membership).toEqual({ role: 'owner' });

    const list = await owner.lfk(['workspaces', 'list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('DEFAULT\tID\tNAME\tROLE\tCREATED\tFILE LINKS\t2FA');
    expect(lines.find((line) => line.includes(personalId))).toMatch(new RegExp(`^\\*\\t${personalId}\\tOlive's workspace\\towner\\t\\d{4}-`));
    expect(lines.find((line) => line.includes(secondId))).toMatch(new RegExp(`^\\t${secondId}\\tSecond\\towner\\t\\d{4}-`));
  });

  let secondKeyId: string;

  it('with two workspaces and no default, keys list exits 2 with workspace_required listing both', async () => {
    // Forget the default, as if it had never been chosen.
    const config = await readConfigFile(owner);
    delete config.servers[server.baseUrl].workspace_id;
    await writeFile(owner.configPath, JSON.stringify(config));

    const result = await owner.lfk(['keys', 'list']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: workspace_required:');
    expect(result.stderr).toContain(personalId);
    expect(result.stderr).toContain(secondId);

    // --workspace picks one.
    const created = await owner.lfk(['keys', 'create', '--name', 'second-key', '--workspace', secondId, '--json']);
    expect(created.code).toBe(0);
    expect(created.json.workspace_id).toBe(secondId);
    secondKeyId = created.json.id;
    const [row] = await server.sql('select workspace_id from api_keys where id = ?', [secondKeyId]);
    expect(row).toEqual({ workspace_id: secondId });
  });

  it('LFK_WORKSPACE picks a workspace, and --workspace beats it', async () => {
    const fromEnv = await owner.lfk(['keys', 'list', '--json'], { env: { LFK_WORKSPACE: personalId } });
    expect(fromEnv.code).toBe(0);
    expect(idsOf(fromEnv.json)).toEqual([ciKeyId, deployKeyId].sort());

    const both = await owner.lfk(['keys', 'list', '--workspace', secondId, '--json'], { env: { LFK_WORKSPACE: personalId } });
    expect(both.code).toBe(0);
    expect(idsOf(both.json)).toEqual([secondKeyId]);
  });

  it('workspaces use remembers the default (below LFK_WORKSPACE); an unknown id exits 1 with workspace_not_found', async () => {
    const used = await owner.lfk(['workspaces', 'use', secondId]);
    expect(used.code).toBe(0);
    expect(used.stdout).toContain(`Default workspace: Second (${secondId}).`);
    expect((await profileOf(owner)).workspace_id).toBe(secondId);
    expect((await stat(owner.configPath)).mode & 0o777).toBe(0o600);

    const fromConfig = await owner.lfk(['keys', 'list', '--json']);
    expect(fromConfig.code).toBe(0);
    expect(idsOf(fromConfig.json)).toEqual([secondKeyId]);

    const envOverConfig = await owner.lfk(['keys', 'list', '--json'], { env: { LFK_WORKSPACE: personalId } });
    expect(envOverConfig.code).toBe(0);
    expect(idsOf(envOverConfig.json)).toEqual([ciKeyId, deployKeyId].sort());

    const unknown = await owner.lfk(['workspaces', 'use', 'ws_unknown']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('error: workspace_not_found:');
    expect(unknown.stderr).toContain('ws_unknown');
    expect((await profileOf(owner)).workspace_id).toBe(secondId);
  });

  it('logout ends the session on the server and removes it from the config file; a second logout is fine', async () => {
    const oldToken = (await profileOf(owner)).session_token as string;

    const result = await owner.lfk(['logout']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Signed out of ${server.baseUrl}.`);

    const config = await readConfigFile(owner);
    expect(config.base_url).toBe(server.baseUrl);
    expect(config.servers[server.baseUrl].session_token).toBeUndefined();
    expect(config.servers[server.baseUrl].workspace_id).toBe(secondId);
    expect(JSON.stringify(config)).not.toContain(oldToken);
    const [session] = await server.sql<{ revoked_at: unknown }>('select revoked_at from sessions where token_hash = ?', [sha256(oldToken)]);
    expect(session?.revoked_at).not.toBeNull();
    // The old token no longer works, even presented directly.
    const direct = await restAs(oldToken, 'GET', '/v1/auth/session');
    expect(direct.status).toBe(401);
    expect(direct.body.error.code).toBe('invalid_session');

    const whoami = await owner.lfk(['whoami']);
    expect(whoami.code).toBe(4);
    expect(whoami.stderr).toContain('error: not_signed_in:');

    const again = await owner.lfk(['logout']);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain(`Not signed in to ${server.baseUrl}.`);
  });

  it('login refuses a wrong password (exit 4) and a password it cannot ask for (exit 2), and saves nothing', async () => {
    const wrong = await owner.lfk(['login', '--email', ownerEmail, '--password-stdin'], { input: 'not the password\n' });
    expect(wrong.code).toBe(4);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toContain('error: invalid_credentials: The email or password is incorrect.');

    const noTty = await owner.lfk(['login', '--email', ownerEmail], { input: `${PASSWORD}\n` });
    expect(noTty.code).toBe(2);
    expect(noTty.stdout).toBe('');
    expect(noTty.stderr).toContain('error: prompt_unavailable:');
    expect(noTty.stderr).toContain('--password-stdin');

    expect((await profileOf(owner)).session_token).toBeUndefined();
  });

  it('login with --password-stdin saves a new session that works', async () => {
    const result = await owner.lfk(['login', '--email', ownerEmail, '--password-stdin'], { input: `${PASSWORD}\n` });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Signed in to ${server.baseUrl} as ${ownerEmail}.`);

    const profile = await profileOf(owner);
    expect(profile.user_email).toBe(ownerEmail);
    expect(result.stdout).not.toContain(profile.session_token);
    const sessions = await server.sql('select revoked_at from sessions where token_hash = ?', [sha256(profile.session_token)]);
    expect(sessions).toEqual([{ revoked_at: null }]);

    const whoami = await owner.lfk(['whoami', '--json']);
    expect(whoami.code).toBe(0);
    expect(whoami.json.user.email).toBe(ownerEmail);
  });

  it('logging out and back in as the same person keeps the default workspace chosen with workspaces use', async () => {
    // Before the logout above, the owner had chosen Second with `workspaces use`; logout removes
    // only the session, and the same owner signed back in.
    const list = await owner.lfk(['keys', 'list', '--json']);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect(idsOf(list.json)).toEqual([secondKeyId]);
    expect((await profileOf(owner)).workspace_id).toBe(secondId);
  });

  it('workspaces create --use makes the new workspace the default', async () => {
    const created = await owner.lfk(['workspaces', 'create', 'Third', '--use', '--json']);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ name: 'Third', role: 'owner' });
    expect((await profileOf(owner)).workspace_id).toBe(created.json.id);

    const list = await owner.lfk(['workspaces', 'list']);
    const marked = list.stdout.split('\n').filter((line) => line.startsWith('*'));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toContain(created.json.id);
  });

  it('the base URL comes from --base-url, then LFK_BASE_URL, then the config file', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;

    // --base-url beats LFK_BASE_URL: the closed port is never tried.
    const flagWins = await owner.lfk(['whoami', '--base-url', server.baseUrl, '--json'], { env: { LFK_BASE_URL: closed } });
    expect(flagWins.code).toBe(0);
    expect(flagWins.json.user.email).toBe(ownerEmail);

    // LFK_BASE_URL beats the config file's base_url.
    const envWins = await owner.lfk(['login', '--email', ownerEmail, '--password-stdin'], {
      input: `${PASSWORD}\n`,
      env: { LFK_BASE_URL: closed },
    });
    expect(envWins.code).toBe(1);
    expect(envWins.stdout).toBe('');
    expect(envWins.stderr).toContain(`error: network_error: Cannot reach ${closed}: connection refused.`);
    expect(envWins.stderr).not.toContain('    at ');

    // And --base-url beats a working LFK_BASE_URL too.
    const flagToClosed = await owner.lfk(['login', '--email', ownerEmail, '--password-stdin', '--base-url', closed], {
      input: `${PASSWORD}\n`,
      env: { LFK_BASE_URL: server.baseUrl },
    });
    expect(flagToClosed.code).toBe(1);
    expect(flagToClosed.stderr).toContain(`error: network_error: Cannot reach ${closed}: connection refused.`);

    // Nothing about the config changed: it still points at the server, with the same session.
    const config = await readConfigFile(owner);
    expect(config.base_url).toBe(server.baseUrl);
    expect(Object.keys(config.servers)).toEqual([server.baseUrl]);
  });

  it('a member who is not an owner cannot create keys in the workspace: exit 1 owner_required', async () => {
    const memberHome = await newHome();
    const memberEmail = 'member@example.com';
    const member = await signupWithCli(memberHome, server, { email: memberEmail });

    const ownerToken = (await profileOf(owner)).session_token as string;
    const invited = await restAs(ownerToken, 'POST', `/v1/workspaces/${secondId}/invitations`, { email: memberEmail, role: 'member' });
    expect(invited.status).toBe(202);
    const token = await linkTokenSentTo(server, memberEmail, 'invitation');
    expect((await memberHome.lfk(['invitations', 'accept', token])).code).toBe(0);

    const workspaces = await memberHome.lfk(['workspaces', 'list', '--json']);
    expect(workspaces.code).toBe(0);
    const roles = Object.fromEntries(workspaces.json.data.map((w: any) => [w.id, w.role]));
    expect(roles).toEqual({ [member.workspaceId]: 'owner', [secondId]: 'member' });

    const result = await memberHome.lfk(['keys', 'create', '--workspace', secondId, '--name', 'sneaky']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: owner_required: Only an owner of the workspace can do this.');
    expect(result.stderr).toContain('Ask an owner of the workspace, or choose another with --workspace.');
    const keys = await server.sql('select id from api_keys where workspace_id = ? and name = ?', [secondId, 'sneaky']);
    expect(keys).toEqual([]);
  });

  it('a fresh login (--json) of a user in two workspaces chooses none: keys list exits 2 with workspace_required', async () => {
    const home = await newHome();
    const login = await home.lfk(['login', '--email', 'member@example.com', '--password-stdin', '--json'], {
      input: `${PASSWORD}\n`,
      env: { LFK_BASE_URL: server.baseUrl },
    });
    expect(login.code).toBe(0);
    expect(login.json.user.email).toBe('member@example.com');
    expect(login.stdout).not.toContain('session_token');
    const profile = await profileOf(home);
    expect(profile.session_token).toEqual(expect.any(String));
    expect(login.stdout).not.toContain(profile.session_token);
    expect(profile.workspace_id).toBeUndefined();

    const [personal] = await server.sql<{ workspace_id: string }>(
      "select m.workspace_id from memberships m join users u on u.id = m.user_id where u.email = ? and m.role = 'owner'",
      ['member@example.com'],
    );
    const result = await home.lfk(['keys', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: workspace_required:');
    expect(result.stderr).toContain(personal!.workspace_id);
    expect(result.stderr).toContain(secondId);
  });
});

describe('whoami --json', () => {
  it('is the API session plus the server and the default workspace, with where it came from', async () => {
    const home = await newHome();
    const { workspaceId } = await signupWithCli(home, server);
    const fromConfig = await home.lfk(['whoami', '--json']);
    expect(fromConfig.code, fromConfig.stderr).toBe(0);
    expect(fromConfig.json).toEqual({
      acting_as: 'session',
      user: expect.objectContaining({ id: expect.any(String), email: expect.any(String) }),
      expires_at: expect.any(String),
      server: server.baseUrl,
      default_workspace: { id: workspaceId, source: 'config' },
    });
    const fromEnv = await home.lfk(['whoami', '--json'], { env: { LFK_WORKSPACE: 'ws_other' } });
    expect(fromEnv.json.default_workspace).toEqual({ id: 'ws_other', source: 'env' });
    const human = await home.lfk(['whoami'], { env: { LFK_WORKSPACE: 'ws_other' } });
    expect(human.stdout).toMatch(/^workspace\tws_other \(from LFK_WORKSPACE\)$/m);
  });
});
