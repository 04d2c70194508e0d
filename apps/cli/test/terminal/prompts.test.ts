/**
 * At a terminal: hidden password prompts, Ctrl-C at a prompt, and the confirmation before revoking a key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signupWithCli } from '../harness.ts';
import { newHome, onTerminal, readConfig, server, STACK_FRAME, startWorld, stopWorld, uniqueEmail } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);

describe('hidden password prompts on a terminal', () => {
  it('signup asks for the password twice without echoing it and signs up', async () => {
    const home = await newHome();
    const email = uniqueEmail('tty-signup');
    const password = `Tty-Secret-${Math.random().toString(36).slice(2, 10)}`;
    const terminal = onTerminal(home, ['signup', '--email', email]);
    await terminal.waitFor('Password: ');
    await terminal.type(`${password}\r`);
    await terminal.waitFor('Password again: ');
    await terminal.type(`${password}\r`);
    const { code, output } = await terminal.exit;

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
    const terminal = onTerminal(home, ['signup', '--email', email]);
    await terminal.waitFor('Password: ');
    await terminal.type('first-Password-1\r');
    await terminal.waitFor('Password again: ');
    await terminal.type('second-Password-2\r');
    const { code, output } = await terminal.exit;

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
    const { email } = await signupWithCli(await newHome(), server.baseUrl);
    const home = await newHome();
    const terminal = onTerminal(home, ['login', '--email', email]);
    await terminal.waitFor('Password: ');
    await terminal.type(`${PASSWORD}\r`);
    const { code, output } = await terminal.exit;

    expect(code, output).toBe(0);
    expect(output).toContain(`Signed in to ${server.baseUrl}`);
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain('horse battery');
    const config = await readConfig(home);
    expect(config.servers[server.baseUrl].user_email).toBe(email);
    expect(config.servers[server.baseUrl].session_token).toEqual(expect.any(String));
  });

  it('login without --email asks for the email (shown as typed), then the password', async () => {
    const { email } = await signupWithCli(await newHome(), server.baseUrl);
    const home = await newHome();
    const terminal = onTerminal(home, ['login']);
    await terminal.waitFor('Email: ');
    await terminal.type(`${email}\r`);
    await terminal.waitFor('Password: ');
    await terminal.type(`${PASSWORD}\r`);
    const { code, output } = await terminal.exit;

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
    const terminal = onTerminal(home, ['login', '--email', 'x@example.com'], { after });
    await terminal.waitFor('Password: ');
    await terminal.type('half-typed\u0003');
    const { output } = await terminal.exit;

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
    const terminal = onTerminal(home, ['login'], { after });
    await terminal.waitFor('Email: ');
    await terminal.type('\u0003');
    const { output } = await terminal.exit;

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
    await signupWithCli(home, server.baseUrl);
    const created = await home.lfk(['keys', 'create', '--name', 'tty-revoke', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const keyId: string = created.json.id;
    const status = async () => {
      const list = await home.lfk(['keys', 'list', '--json']);
      expect(list.code, list.stderr).toBe(0);
      return list.json.data.find((k: any) => k.id === keyId)?.status;
    };

    const no = onTerminal(home, ['keys', 'revoke', keyId]);
    await no.waitFor('[y/N] ');
    await no.type('n\r');
    const declined = await no.exit;
    // Answering no is not a failure: its own exit code, and no error line.
    expect(declined.code, declined.output).toBe(3);
    expect(declined.output).toContain(keyId);
    expect(declined.output).toContain('Nothing was revoked');
    expect(declined.output).not.toContain('error:');
    expect(await status()).toBe('active');

    const yes = onTerminal(home, ['keys', 'revoke', keyId]);
    await yes.waitFor('[y/N] ');
    await yes.type('y\r');
    const accepted = await yes.exit;
    expect(accepted.code, accepted.output).toBe(0);
    expect(accepted.output).toContain(`Revoked ${keyId}.`);
    expect(await status()).toBe('revoked');
  }, 120_000);
});
