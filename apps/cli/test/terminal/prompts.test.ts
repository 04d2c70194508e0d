/**
 * At a terminal: hidden password prompts, Ctrl-C at a prompt, and the confirmation before revoking a key.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticatorCode } from '@lfk/server/testing';
import { PASSWORD, signupWithCli } from '../harness.ts';
import { newHome, onTerminal, readConfig, server, STACK_FRAME, startWorld, stopWorld, uniqueEmail } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);

describe('hidden password prompts on a terminal', () => {
  it('signup asks for the password twice without echoing it and signs up', async () => {
    const home = await newHome();
    const email = uniqueEmail('tty-signup');
    const password = `Tty-Secret-${Math.random().toString(36).slice(2, 10)}`;
    const { code, output } = await onTerminal(home, ['signup', '--email', email]).answer(
      ['Password: ', `${password}\r`],
      ['Password again: ', `${password}\r`],
    );

    expect(code, output).toBe(0);
    expect(output).toContain(`Signed up to ${server.baseUrl}`);
    expect(output).toContain(email);
    expect(output).not.toContain(password);
    expect(output).not.toContain('Tty-Secret');
    const config = await readConfig(home);
    expect(config.base_url).toBe(server.baseUrl);
    expect(config.servers[server.baseUrl].user_email).toBe(email);
    expect(config.servers[server.baseUrl].session_token).toEqual(expect.any(String));
    expect(config.servers[server.baseUrl].session_token.length).toBeGreaterThan(0);

    // The session saved from the terminal works.
    const whoami = await home.lfk(['whoami', '--json']);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.json.user.email).toBe(email);
  });

  it('signup with two different passwords fails with passwords_differ and signs nobody up', async () => {
    const home = await newHome();
    const email = uniqueEmail('tty-differ');
    const { code, output } = await onTerminal(home, ['signup', '--email', email]).answer(
      ['Password: ', 'first-Password-1\r'],
      ['Password again: ', 'second-Password-2\r'],
    );

    expect(code, output).toBe(1);
    expect(output).toContain('passwords_differ');
    expect(output).not.toContain('first-Password-1');
    expect(output).not.toContain('second-Password-2');
    expect(output).not.toMatch(STACK_FRAME);
    expect((await readConfig(home))?.servers?.[server.baseUrl]?.session_token).toBeUndefined();

    // Nobody was signed up: the email is still free to sign up with.
    const again = await home.lfk(['signup', '--email', email, '--password-stdin', '--json'], { input: `${PASSWORD}\n` });
    expect(again.code, again.stderr).toBe(0);
  });

  it('login --email asks for the password without echoing it and signs in', async () => {
    const { email } = await signupWithCli(await newHome(), server);
    const home = await newHome();
    const { code, output } = await onTerminal(home, ['login', '--email', email]).answer(['Password: ', `${PASSWORD}\r`]);

    expect(code, output).toBe(0);
    expect(output).toContain(`Signed in to ${server.baseUrl}`);
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain('horse battery');
    const config = await readConfig(home);
    expect(config.servers[server.baseUrl].user_email).toBe(email);
    expect(config.servers[server.baseUrl].session_token).toEqual(expect.any(String));
  });

  it('login without --email asks for the email (shown as typed), then the password', async () => {
    const { email } = await signupWithCli(await newHome(), server);
    const home = await newHome();
    const { code, output } = await onTerminal(home, ['login']).answer(['Email: ', `${email}\r`], ['Password: ', `${PASSWORD}\r`]);

    expect(code, output).toBe(0);
    expect(output).toContain(email);
    expect(output).not.toContain(PASSWORD);
    expect((await readConfig(home)).servers[server.baseUrl].user_email).toBe(email);
  });
});

describe('Ctrl-C at a prompt', () => {
  // `stty -a` runs on the same terminal right after lfk, showing the mode lfk left it in.
  const after = '; echo "EXIT=$?"; stty -a';
  const echoOn = (output: string) => /(^|\s)echo(\s|$)/m.test(output) && !/(^|\s)-echo(\s|$)/m.test(output);
  const canonical = (output: string) => /(^|\s)icanon(\s|$)/m.test(output) && !/(^|\s)-icanon(\s|$)/m.test(output);

  it('at the password prompt: exits 130, no stack trace, echo restored', async () => {
    const home = await newHome();
    const { output } = await onTerminal(home, ['login', '--email', 'x@example.com'], { after }).answer(['Password: ', 'half-typed\u0003']);

    expect(output).toContain('EXIT=130');
    expect(output).toContain('Cancelled.');
    expect(output).not.toContain('half-typed');
    expect(output).not.toMatch(STACK_FRAME);
    expect(output).not.toContain('unexpected_error');
    expect(echoOn(output), output).toBe(true);
    expect(canonical(output), output).toBe(true);
    expect(await readConfig(home)).toBeUndefined();
  });

  it('at the email prompt: exits 130, no stack trace, echo restored', async () => {
    const home = await newHome();
    const { output } = await onTerminal(home, ['login'], { after }).answer(['Email: ', '\u0003']);

    expect(output).toContain('EXIT=130');
    expect(output).toContain('Cancelled.');
    expect(output).not.toMatch(STACK_FRAME);
    expect(echoOn(output), output).toBe(true);
    expect(canonical(output), output).toBe(true);
  });
});

describe('confirmation before revoking a key', () => {
  it('asks [y/N]: "n" keeps the key, "y" revokes it', async () => {
    const home = await newHome();
    await signupWithCli(home, server);
    const created = await home.lfk(['keys', 'create', '--name', 'tty-revoke', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const keyId: string = created.json.id;
    const status = async () => {
      const list = await home.lfk(['keys', 'list', '--json']);
      expect(list.code, list.stderr).toBe(0);
      return list.json.data.find((k: any) => k.id === keyId)?.status;
    };

    const declined = await onTerminal(home, ['keys', 'revoke', keyId]).answer(['[y/N] ', 'n\r']);
    // Answering no is not a failure: its own exit code, and no error line.
    expect(declined.code, declined.output).toBe(3);
    // The question names the key three ways: id, name and display prefix.
    expect(declined.output).toMatch(new RegExp(`Revoke ${keyId} \\(tty-revoke, lfk_[0-9A-Za-z]{6}…\\)\\?`));
    expect(declined.output).toContain('Nothing was revoked');
    expect(declined.output).not.toContain('error:');
    expect(await status()).toBe('active');

    const accepted = await onTerminal(home, ['keys', 'revoke', keyId]).answer(['[y/N] ', 'y\r']);
    expect(accepted.code, accepted.output).toBe(0);
    expect(accepted.output).toContain(`Revoked ${keyId}.`);
    expect(await status()).toBe('revoked');
  }, 120_000);
});

describe('signing up and in at a terminal', () => {
  it('signup says a password is too short before asking for it again', async () => {
    const home = await newHome();
    const { code, output } = await onTerminal(home, ['signup', '--email', uniqueEmail('short')]).answer(['Password: ', 'short\r']);
    expect(code, output).toBe(2);
    expect(output).toContain('invalid_password');
    expect(output).toContain('at least 10 characters');
    expect(output).not.toContain('Password again');
  });

  it('signup says the server cannot be reached before asking for a password at all', async () => {
    const home = await newHome();
    const { code, output } = await onTerminal(home, ['signup', '--email', uniqueEmail('away')], {
      env: { LFK_BASE_URL: 'http://127.0.0.1:1' },
    }).exit;
    expect(code, output).toBe(1);
    expect(output).toContain('network_error: Cannot reach http://127.0.0.1:1');
    expect(output).not.toContain('Password');
  });

  it('login of someone in several workspaces asks which one is the default, and remembers it', async () => {
    const owner = await newHome();
    const { email } = await signupWithCli(owner, server);
    const second = await owner.lfk(['workspaces', 'create', 'Second place', '--json']);
    expect(second.code, second.stderr).toBe(0);

    const home = await newHome();
    const terminal = onTerminal(home, ['login', '--email', email]);
    await terminal.waitFor('Password: ');
    await terminal.type(`${PASSWORD}\r`);
    await terminal.waitFor('Workspace [1-2]: ');
    await terminal.type('9\r');
    await terminal.waitFor('Answer a number from 1 to 2.');
    await terminal.waitFor('Workspace [1-2]: ');
    const listed = await owner.lfk(['workspaces', 'list', '--json']); // the same person's workspaces, in the same order
    const index = listed.json.data.findIndex((w: any) => w.id === second.json.id) + 1;
    await terminal.type(`${index}\r`);
    const { code, output } = await terminal.exit;
    expect(code, output).toBe(0);
    expect(output).toContain('Second place');
    expect((await readConfig(home)).servers[server.baseUrl].workspace_id).toBe(second.json.id);
  });
});

describe("replacing a form's fields on a terminal", () => {
  it('asks first, naming what would be dropped; "n" changes nothing (exit 3), "y" replaces', async () => {
    const home = await newHome();
    await signupWithCli(home, server);
    const created = await home.lfk(['forms', 'create', '--name', 'Asked', '--field', 'email:email', '--field', 'fax:tel', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id: string = created.json.id;

    const declined = await onTerminal(home, ['forms', 'update', id, '--field', 'email:email']).answer(['"fax" will be removed. Continue? [y/N] ', 'n\r']);
    expect(declined.code, declined.output).toBe(3);
    expect(declined.output).toContain('Nothing was changed.');
    expect((await home.lfk(['forms', 'get', id, '--json'])).json.schema).toHaveLength(2);

    const accepted = await onTerminal(home, ['forms', 'update', id, '--field', 'email:email']).answer(['Continue? [y/N] ', 'y\r']);
    expect(accepted.code, accepted.output).toBe(0);
    expect((await home.lfk(['forms', 'get', id, '--json'])).json.schema.map((f: any) => f.name)).toEqual(['email']);
  });
});

describe('a second factor at a terminal', () => {
  it('login asks for the code after the password; a wrong one is asked again', async () => {
    const setup = await newHome();
    const { email } = await signupWithCli(setup, server);
    const started = await setup.lfk(['account', 'two-factor', 'enable', '--json']);
    const now = () => server.server.config.now();
    const secret: string = started.json.secret;
    expect((await setup.lfk(['account', 'two-factor', 'confirm', await authenticatorCode(secret, 0, now())])).code).toBe(0);

    const home = await newHome();
    const wrong = '000000' === (await authenticatorCode(secret, 1, now())) ? '111111' : '000000';
    const terminal = onTerminal(home, ['login', '--email', email]);
    await terminal.waitFor('Password: ');
    await terminal.type(`${PASSWORD}\r`);
    await terminal.waitFor('Authentication code (or a recovery code): ');
    await terminal.type(`${wrong}\r`);
    await terminal.waitFor('That code is not right');
    await terminal.waitFor('Authentication code (or a recovery code): ');
    await terminal.type(`${await authenticatorCode(secret, 1, now())}\r`);
    const { code, output } = await terminal.exit;
    expect(code, output).toBe(0);
    expect(output).toContain(`Signed in to ${server.baseUrl}`);
    expect((await readConfig(home)).servers[server.baseUrl].user_email).toBe(email);
  });

  it('sudo mode: a key made long after signing in asks who you are (hidden), then is made', async () => {
    const home = await newHome();
    const { email } = await signupWithCli(home, server);
    await server.sql(`update sessions s set authenticated_at = now() - interval '1 hour' from users u where u.id = s.user_id and u.email = ?`, [email]);
    const { code, output } = await onTerminal(home, ['keys', 'create', '--name', 'after-sudo']).answer([
      'Password (or a code from your authenticator app): ',
      `${PASSWORD}\r`,
    ]);
    expect(code, output).toBe(0);
    expect(output).toContain("confirm it's you");
    expect(output).not.toContain(PASSWORD);
    expect((await home.lfk(['keys', 'list', '--json'])).json.data.map((k: any) => k.name)).toEqual(['after-sudo']);
  });

  it('sudo mode: a wrong or empty password is told as the server said it and asked again; the right one goes on', async () => {
    const home = await newHome();
    const { email } = await signupWithCli(home, server);
    await server.sql(`update sessions s set authenticated_at = now() - interval '1 hour' from users u where u.id = s.user_id and u.email = ?`, [email]);
    const asked = 'Password (or a code from your authenticator app): ';
    const { code, output } = await onTerminal(home, ['keys', 'create', '--name', 'third-time']).answer(
      [asked, 'not my password\r'],
      ['Is not your password.', ''],
      [asked, '\r'],
      [asked, `${PASSWORD}\r`],
    );
    expect(code, output).toBe(0);
    expect(output.match(/Is not your password\./g)).toHaveLength(2);
    expect(output).not.toContain('unexpected_error');
    expect(output).not.toMatch(STACK_FRAME);
    expect((await home.lfk(['keys', 'list', '--json'])).json.data.map((k: any) => k.name)).toEqual(['third-time']);
  });

  it("sudo mode: three wrong answers stop the command with the server's error, and nothing is done", async () => {
    const home = await newHome();
    const { email } = await signupWithCli(home, server);
    await server.sql(`update sessions s set authenticated_at = now() - interval '1 hour' from users u where u.id = s.user_id and u.email = ?`, [email]);
    const asked = 'Password (or a code from your authenticator app): ';
    const { code, output } = await onTerminal(home, ['keys', 'create', '--name', 'never']).answer(
      [asked, 'wrong one\r'],
      [asked, 'wrong two\r'],
      [asked, 'wrong three\r'],
    );
    expect(code, output).toBe(1);
    // The last answer ends the command as an error, in colour on a terminal.
    const shown = stripVTControlCharacters(output);
    expect(shown).toMatch(
      new RegExp(
        /Try again\.\s+Password \(or a code from your authenticator app\): \s*/.source +
          /error: invalid_request: The request is not valid\.\s+password: Is not your password\./.source,
      ),
    );
    expect(output).not.toContain('unexpected_error');
    expect(output).not.toMatch(STACK_FRAME);
    expect(output.split(asked)).toHaveLength(4);
    expect((await home.lfk(['keys', 'list', '--json'])).json.data).toEqual([]);
  });
});
