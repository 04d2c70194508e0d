/**
 * One identity per command: with an API key given (LFK_API_KEY or --api-key), the CLI acts as the
 * key alone, even with another person's session saved. What a key can do uses the key; what needs
 * a person is refused, saying the key is why and how to use the saved session instead; `whoami`
 * says which identity commands act as.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Home, newHome, ownerKey, signupWithCli, server, startWorld, stopWorld, workspaceId } from './harness.ts';

let somebodyElse: Home;
let somebodyElseEmail: string;
let key: string;
let keyId: string;
let keyFormId: string;

beforeAll(async () => {
  await startWorld();
  ({ key, id: keyId } = await ownerKey('agent'));
  // Another person, signed in on this machine, who is no member of the key's workspace.
  somebodyElse = await newHome();
  ({ email: somebodyElseEmail } = await signupWithCli(somebodyElse, server));
  const created = await somebodyElse.lfk(['forms', 'create', '--name', 'Key form', '--field', 'email:email:required', '--json'], { env: { LFK_API_KEY: key } });
  expect(created.code, created.stderr).toBe(0);
  keyFormId = created.json.id;
});
afterAll(stopWorld);

describe('an API key given while another person is signed in', () => {
  it("acts as the key for what a key can do: the key's own form, whoever is signed in", async () => {
    const got = await somebodyElse.lfk(['forms', 'get', keyFormId, '--json'], { env: { LFK_API_KEY: key } });
    expect(got.code, got.stderr).toBe(0);
    expect(got.json.id).toBe(keyFormId);
    // The saved session alone does not reach it: it is another person's.
    expect((await somebodyElse.lfk(['forms', 'get', keyFormId])).code).not.toBe(0);
  });

  it('refuses what needs a person, saying the key is set and how to use the saved session', async () => {
    for (const args of [
      ['submissions', 'list', keyFormId],
      ['forms', 'list'],
      ['keys', 'list'],
    ]) {
      const refused = await somebodyElse.lfk(args, { env: { LFK_API_KEY: key } });
      expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(4);
      expect(refused.stderr).toContain('error: session_required: This needs a signed-in person: an API key cannot do it, and LFK_API_KEY is set.');
      expect(refused.stderr).toContain(`unset LFK_API_KEY to use your saved session (${somebodyElseEmail})`);
      expect(refused.stdout).toBe('');
    }
    const flagged = await somebodyElse.lfk(['forms', 'list', '--api-key', key]);
    expect(flagged.code).toBe(4);
    expect(flagged.stderr).toContain('an API key cannot do it, and --api-key is set.');
    // Without the key, the saved session is used again.
    expect((await somebodyElse.lfk(['forms', 'list'])).code).toBe(0);
  });

  it('whoami says commands act as the key, and that the saved session is not used', async () => {
    const human = await somebodyElse.lfk(['whoami'], { env: { LFK_API_KEY: key } });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^acting as\\s+API key “agent” ${key.slice(0, 10)}… \\(from LFK_API_KEY\\)$`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^key\\s+${keyId}$`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^workspace\\s+${workspaceId}$`, 'm'));
    expect(human.stdout).toMatch(/^expires\s+never$/m);
    expect(human.stdout).toMatch(/^allowed from\s+any address$/m);
    expect(human.stdout).toMatch(new RegExp(`^saved session\\s+${somebodyElseEmail.replace(/[.+]/g, '\\$&')}: not used while LFK_API_KEY is set$`, 'm'));
    expect(human.stdout).not.toContain(key);

    const json = await somebodyElse.lfk(['whoami', '--json'], { env: { LFK_API_KEY: key } });
    expect(json.json).toEqual({
      acting_as: 'api_key',
      // The server's own answer of which key it is (GET /v1/api-keys/current), and where it came from.
      api_key: {
        id: keyId,
        name: 'agent',
        prefix: key.slice(0, 10),
        workspace_id: workspaceId,
        created_at: expect.any(String),
        expires_at: null,
        allowed_ips: null,
        source: 'LFK_API_KEY',
      },
      saved_session: { email: somebodyElseEmail, used: false },
      server: server.baseUrl,
    });
    const signedIn = await somebodyElse.lfk(['whoami', '--json']);
    expect(signedIn.json).toMatchObject({ acting_as: 'session', user: { email: somebodyElseEmail } });
  });
});
