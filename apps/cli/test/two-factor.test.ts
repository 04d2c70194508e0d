// lfk account two-factor, lfk login with a second factor, and sudo mode without a terminal, against the real server.
import { authenticatorCode } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newHome, PASSWORD, server, signupWithCli, startWorld, stopWorld } from './harness.ts';

beforeAll(() => startWorld({ owner: false }));
afterAll(() => stopWorld());

const now = () => server.server.config.now();

/** A person signed up through the CLI who set an authenticator app up through it, without a terminal. */
async function personWithApp() {
  const home = await newHome({ LFK_BASE_URL: server.baseUrl });
  const { email } = await signupWithCli(home, server);
  const started = await home.lfk(['account', 'two-factor', 'enable', '--json']);
  expect(started.code, started.stderr).toBe(0);
  expect(started.stderr).toContain("run 'lfk account two-factor confirm <code>'");
  const secret = started.json.secret as string;
  const confirmed = await home.lfk(['account', 'two-factor', 'confirm', await authenticatorCode(secret, 0, now()), '--json']);
  expect(confirmed.code, confirmed.stderr).toBe(0);
  return { home, email, secret, recoveryCodes: confirmed.json.recovery_codes as string[] };
}

describe('lfk account two-factor', () => {
  it('enable, then confirm with the first code: recovery codes once; status says so', async () => {
    const { home, recoveryCodes } = await personWithApp();
    expect(recoveryCodes).toHaveLength(10);
    const status = await home.lfk(['account', 'two-factor', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/two-factor\s+on/);
    expect(status.stdout).toMatch(/recovery codes left\s+10/);

    const fresh = await home.lfk(['account', 'two-factor', 'recovery-codes', '--yes']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain('this is the only time they are shown');
    expect(fresh.stdout.match(/^ {2}[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/gm)).toHaveLength(10);

    const off = await home.lfk(['account', 'two-factor', 'disable', '--yes']);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toContain('The authenticator app is off.');
    expect((await home.lfk(['account', 'two-factor', 'status', '--json'])).json.enabled).toBe(false);
  });

  it('enable without a terminal and without --json still prints the secret and its otpauth URL, to set the app up and confirm', async () => {
    const home = await newHome({ LFK_BASE_URL: server.baseUrl });
    await signupWithCli(home, server);
    const started = await home.lfk(['account', 'two-factor', 'enable']);
    expect(started.code, started.stderr).toBe(0);
    const secret = started.stdout.match(/^secret\t([A-Z2-7]+)$/m)?.[1];
    expect(secret, started.stdout).toBeDefined();
    expect(started.stdout).toMatch(new RegExp(`^otpauth url\totpauth://totp/[^\n]*secret=${secret}`, 'm'));
    expect(started.stderr).toContain("run 'lfk account two-factor confirm <code>'");
    const confirmed = await home.lfk(['account', 'two-factor', 'confirm', await authenticatorCode(secret!, 0, now())]);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((await home.lfk(['account', 'two-factor', 'status', '--json'])).json.enabled).toBe(true);
  });

  it('a wrong first code sets nothing up', async () => {
    const home = await newHome({ LFK_BASE_URL: server.baseUrl });
    await signupWithCli(home, server);
    const started = await home.lfk(['account', 'two-factor', 'enable', '--json']);
    const wrong = await home.lfk(['account', 'two-factor', 'confirm', await authenticatorCode(started.json.secret, 5, now())]);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('invalid_second_factor');
    expect((await home.lfk(['account', 'two-factor', 'status', '--json'])).json.enabled).toBe(false);
  });
});

describe('lfk login with a second factor', () => {
  it('--code completes the sign-in; a recovery code does too; without either and no terminal it says what to pass', async () => {
    const { email, secret, recoveryCodes } = await personWithApp();
    const laptop = await newHome({ LFK_BASE_URL: server.baseUrl });

    const noCode = await laptop.lfk(['login', '--email', email, '--password-stdin'], { input: `${PASSWORD}\n` });
    expect(noCode.code).toBe(2);
    expect(noCode.stderr).toContain('--code <code>');

    const wrong = await laptop.lfk(
      ['login', '--email', email, '--password-stdin', '--code', '000000' === (await authenticatorCode(secret, 1, now())) ? '111111' : '000000'],
      {
        input: `${PASSWORD}\n`,
      },
    );
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toContain('invalid_second_factor');

    const signedIn = await laptop.lfk(['login', '--email', email, '--password-stdin', '--code', await authenticatorCode(secret, 1, now()), '--json'], {
      input: `${PASSWORD}\n`,
    });
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.json.user.email).toBe(email);
    expect(JSON.stringify(signedIn.json)).not.toContain('lfs_');
    expect((await laptop.lfk(['whoami', '--json'])).json.user.email).toBe(email);

    const phone = await newHome({ LFK_BASE_URL: server.baseUrl });
    const withRecovery = await phone.lfk(['login', '--email', email, '--password-stdin', '--code', recoveryCodes[0]!], { input: `${PASSWORD}\n` });
    expect(withRecovery.code, withRecovery.stderr).toBe(0);
    expect(withRecovery.stdout).toContain(`Signed in to ${server.baseUrl} as`);
  });
});

describe('sudo mode without a terminal', () => {
  it('a session signed in long ago is told to confirm; nothing is done', async () => {
    const home = await newHome({ LFK_BASE_URL: server.baseUrl });
    const { email, workspaceId } = await signupWithCli(home, server);
    await server.sql(`update sessions s set authenticated_at = now() - interval '1 hour' from users u where u.id = s.user_id and u.email = ?`, [email]);
    const refused = await home.lfk(['keys', 'create', '--name', 'agent', '--workspace', workspaceId]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('reauthentication_required');
    expect(refused.stderr).toContain("sign in again with 'lfk login'");
    expect((await home.lfk(['keys', 'list', '--json', '--workspace', workspaceId])).json.data).toEqual([]);
  });
});

describe('lfk workspaces update --require-two-factor', () => {
  it('needs your own second factor first; then a member without one is told how to get in', async () => {
    const { home } = await personWithApp();
    const bare = await newHome({ LFK_BASE_URL: server.baseUrl });
    const { workspaceId } = await signupWithCli(bare, server);
    const refused = await bare.lfk(['workspaces', 'update', '--require-two-factor', 'on']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('two_factor_not_enabled');

    const on = await home.lfk(['workspaces', 'update', '--require-two-factor', 'on']);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain('now need a second factor');
    const listed = await home.lfk(['workspaces', 'list', '--json']);
    expect(listed.json.data[0].require_two_factor).toBe(true);

    // The account without a factor, in its own workspace, is not affected.
    expect((await bare.lfk(['forms', 'list', '--workspace', workspaceId])).code).toBe(0);
  });
});
