import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createNetServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Home, LFK_BIN, type LfkServerUnderTest, PASSWORD, signupWithCli, startServer, tempHome } from './harness.ts';

// What a person at a real terminal sees: hidden password prompts, questions, colour, Ctrl-C, and the
// shell completion scripts. A real TTY comes from util-linux `script`, which runs the CLI on a pty.

let server: LfkServerUnderTest;
const homes: Home[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
  await Promise.all(homes.map((home) => home.remove()));
});

async function newHome(): Promise<Home> {
  const home = await tempHome({ LFK_BASE_URL: server.baseUrl });
  homes.push(home);
  return home;
}

const uniqueEmail = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes is the point.
const ESC = /\u001b\[/;
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?\s*$/m;

async function readConfig(home: Home): Promise<any> {
  return existsSync(home.configPath) ? JSON.parse(await readFile(home.configPath, 'utf8')) : undefined;
}

interface TerminalOptions {
  env?: Record<string, string>;
  /** Shell text run on the same terminal after lfk exits, e.g. `; echo EXIT=$?; stty -a`. */
  after?: string;
  /** The terminal's width; 120 unless a test is about narrow ones. */
  columns?: number;
  timeoutMs?: number;
}

interface Terminal {
  /** Resolves once `text` has appeared in the terminal output after everything waited for so far. */
  waitFor(text: string): Promise<void>;
  /** Types into the terminal (only call it once the prompt has been waited for). */
  type(text: string): Promise<void>;
  /** Everything the terminal showed, and the exit code `script -e` passed on from the command. */
  exit: Promise<{ code: number | null; output: string }>;
}

/**
 * Runs `lfk <args>` on a pseudo-terminal with `script`: stdin, stdout and stderr are all the pty.
 * Everything the terminal displays (prompts, echo, output) is collected; the run is killed on timeout.
 */
function onTerminal(home: Home, args: string[], options: TerminalOptions = {}): Terminal {
  const command = `stty cols ${options.columns ?? 120} rows 40; ${[process.execPath, LFK_BIN, ...args].map(shellQuote).join(' ')}${options.after ?? ''}`;
  const child: ChildProcess = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home.dir,
      XDG_CONFIG_HOME: dirname(dirname(home.configPath)),
      LFK_BASE_URL: server.baseUrl,
      TERM: 'xterm',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let searchFrom = 0;
  let ended = false;
  const waiters: { text: string; resolve: () => void; reject: (error: Error) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      const at = output.indexOf(waiter.text, searchFrom);
      if (at === -1) continue;
      searchFrom = at + waiter.text.length;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    check();
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
    check();
  });
  child.stdin?.on('error', () => {});

  const exit = new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`lfk ${args.join(' ')} did not finish in time on the terminal; it showed:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      ended = true;
      child.stdin?.destroy();
      for (const waiter of waiters.splice(0)) {
        waiter.reject(new Error(`lfk ended (exit ${code}) before showing ${JSON.stringify(waiter.text)}; it showed:\n${output}`));
      }
      resolve({ code, output });
    });
  });
  exit.catch(() => {}); // reported through whoever awaits it

  return {
    waitFor: (text) =>
      new Promise<void>((resolve, reject) => {
        if (ended) return reject(new Error(`lfk has ended; it never showed ${JSON.stringify(text)}:\n${output}`));
        waiters.push({ text, resolve, reject });
        check();
      }),
    type: async (text) => {
      // The prompt is written just before the CLI turns echo off; give it a moment to do so.
      await sleep(150);
      child.stdin?.write(text);
    },
    exit,
  };
}

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
    // The question names the key three ways: id, name and display prefix.
    expect(declined.output).toMatch(new RegExp(`Revoke ${keyId} \\(tty-revoke, lfk_[0-9A-Za-z]{6}…\\)\\?`));
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

describe('colour', () => {
  let home: Home;
  beforeAll(async () => {
    home = await newHome();
    await signupWithCli(home, server.baseUrl);
    const created = await home.lfk(['keys', 'create', '--name', 'colourful', '--json']);
    if (created.code !== 0) throw new Error(created.stderr);
  });

  it('keys list on a terminal is coloured', async () => {
    const { code, output } = await onTerminal(home, ['keys', 'list']).exit;
    expect(code, output).toBe(0);
    expect(output).toContain('colourful');
    expect(output).toMatch(ESC);
  });

  it('keys list on a terminal with NO_COLOR=1 is not', async () => {
    const { code, output } = await onTerminal(home, ['keys', 'list'], { env: { NO_COLOR: '1' } }).exit;
    expect(code, output).toBe(0);
    expect(output).toContain('colourful');
    expect(output).not.toMatch(ESC);
  });

  it('on a terminal, our colours stay while an escape sequence in a key name is shown inert', async () => {
    const created = await home.lfk(['keys', 'create', '--name', 'to-be-hostile', '--json']);
    await server.sql('update api_keys set name = ? where id = ?', ['\u001b[2J\u001b]0;pwned\u0007hostile', created.json.id]);
    const { code, output } = await onTerminal(home, ['keys', 'list']).exit;
    expect(code, output).toBe(0);
    expect(output).toMatch(ESC);
    expect(output).toContain('^[[2J^[]0;pwned^Ghostile');
    expect(output).not.toContain('\u001b[2J');
    expect(output).not.toContain('\u001b]0;');
  });

  it('keys list in a 60-column terminal fits it: no line wider, names cut with an ellipsis, nothing broken mid-word', async () => {
    await home.lfk(['keys', 'create', '--name', 'a rather long name for the marketing site deploy bot']);
    const { code, output } = await onTerminal(home, ['keys', 'list'], { columns: 60, env: { NO_COLOR: '1' } }).exit;
    expect(code, output).toBe(0);
    const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('stty'));
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(60);
    // Too narrow for every column even with names cut: the optional ones (created, last used, prefix) go.
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS$/);
    expect(output).toMatch(/a rather[^\n]*…/);
    expect(output).toMatch(/\sactive\s/);
    expect(output).not.toContain('marketing site deploy bot');
  });

  it('keys list through a pipe is never coloured', async () => {
    const result = await home.lfk(['keys', 'list']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('colourful');
    expect(result.stdout).not.toMatch(ESC);
    expect(result.stderr).not.toMatch(ESC);
  });
});

// Node's pipes are sockets, which bash takes for rshd and reads ~/.bashrc: hence --norc everywhere.
function run(file: string, args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { PATH: process.env.PATH ?? '' }, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('bash completion', () => {
  let scriptFile: string;
  let cwd: string;
  beforeAll(async () => {
    const home = await newHome();
    const result = await home.lfk(['completion', 'bash']);
    if (result.code !== 0) throw new Error(`lfk completion bash: ${result.stderr}`);
    scriptFile = join(home.dir, 'lfk.bash');
    await writeFile(scriptFile, result.stdout);
    cwd = join(home.dir, 'project');
    await mkdir(cwd);
    await writeFile(join(cwd, 'fields.json'), '[]');
    await writeFile(join(cwd, 'notes.txt'), '');
  });

  /** What bash offers for the last of `words` (the word being typed; '' after a space). */
  async function complete(words: string[]): Promise<string[]> {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansions, not a template.
    const driver = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _lfk_completions; printf \'%s\\n\' "${COMPREPLY[@]}"';
    const result = await run('bash', ['--norc', '--noprofile', '-c', driver, 'bash', scriptFile, ...words], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter(Boolean);
  }

  it('is valid bash that registers the function for lfk', async () => {
    const syntax = await run('bash', ['--norc', '--noprofile', '-n', scriptFile]);
    expect(syntax.code, syntax.stderr).toBe(0);
    const registered = await run('bash', ['--norc', '--noprofile', '-c', 'source "$1"; complete -p lfk', 'bash', scriptFile]);
    expect(registered.code, registered.stderr).toBe(0);
    expect(registered.stdout).toContain('_lfk_completions');
  });

  it('completes commands and subcommands', async () => {
    expect(await complete(['lfk', 'ke'])).toEqual(['keys']);
    expect(await complete(['lfk', 'su'])).toEqual(['submissions']);
    const afterKeys = await complete(['lfk', 'keys', '']);
    expect(afterKeys.filter((w) => !w.startsWith('-'))).toEqual(['create', 'list', 'revoke']);
    expect(afterKeys).toContain('--help');
    expect(afterKeys).toContain('--json');
    expect(await complete(['lfk', 'keys', 're'])).toEqual(['revoke']);
    // A global flag before the command does not get in the way.
    expect(await complete(['lfk', '--json', 'keys', 'li'])).toEqual(['list']);
  });

  it('completes flags and their values', async () => {
    expect(await complete(['lfk', 'forms', 'create', '--m'])).toEqual(['--mode']);
    expect((await complete(['lfk', 'forms', 'create', '--mode', ''])).sort()).toEqual(['api_key', 'browser']);
    expect(await complete(['lfk', 'keys', 'revoke', '--y'])).toEqual(['--yes']);
  });

  it('completes file names after --schema and --data-json', async () => {
    const all = await complete(['lfk', 'forms', 'create', '--schema', '']);
    expect(all).toContain('fields.json');
    expect(all).toContain('notes.txt');
    expect(await complete(['lfk', 'forms', 'create', '--schema', 'fi'])).toEqual(['fields.json']);
    expect(await complete(['lfk', 'submissions', 'create', 'form_x', '--data-json', 'fi'])).toEqual(['fields.json']);
  });
});

// CI installs zsh; without it on PATH these tests are skipped on a developer machine.
const hasZsh = process.env.PATH?.split(':').some((dir) => dir && existsSync(join(dir, 'zsh'))) ?? false;

describe('zsh completion', () => {
  let scriptFile: string;
  beforeAll(async () => {
    const home = await newHome();
    const result = await home.lfk(['completion', 'zsh']);
    if (result.code !== 0) throw new Error(`lfk completion zsh: ${result.stderr}`);
    expect(result.stdout.startsWith('#compdef lfk')).toBe(true);
    scriptFile = join(home.dir, '_lfk');
    await writeFile(scriptFile, result.stdout);
  });

  it.skipIf(!hasZsh)('is valid zsh', async () => {
    const syntax = await run('zsh', ['-n', scriptFile]);
    expect(syntax.code, syntax.stderr).toBe(0);
  });

  it.skipIf(!hasZsh)('offers commands, flags and values', async () => {
    // The completion system's functions are replaced by stand-ins that print what they were given.
    const driver = [
      'compdef() { print -r -- "compdef $*"; }',
      'compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@"; }',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh parameter expansions, not a template.
      '_describe() { local -a items; items=("${(@P)2}"); print -rl -- "${items[@]%%:*}"; }',
      '_files() { print -r -- "(files)"; }',
      'source "$1"; shift',
      'words=("$@"); CURRENT=$#words',
      '_lfk',
    ].join('\n');
    const complete = async (words: string[]) => {
      const result = await run('zsh', ['-f', '-c', driver, 'zsh', scriptFile, ...words]);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout.split('\n').filter((line) => line && !line.startsWith('compdef '));
    };
    const afterKeys = await complete(['lfk', 'keys', '']);
    expect(afterKeys).toEqual(['create', 'list', 'revoke']);
    expect(await complete(['lfk', 'forms', 'create', '--m'])).toContain('--mode');
    expect((await complete(['lfk', 'forms', 'create', '--mode', ''])).sort()).toEqual(['api_key', 'browser']);
    expect(await complete(['lfk', 'forms', 'create', '--schema', ''])).toEqual(['(files)']);
  });

  it('fish is not a supported shell: usage error', async () => {
    const result = await (await newHome()).lfk(['completion', 'fish']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toContain('fish');
  });
});

describe('a slow request', () => {
  it('shows a spinner on the terminal while it waits, and clears it before the error', async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.resume(); // reads the request, never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const home = await newHome();
      const { code, output } = await onTerminal(home, ['--timeout', '2', 'forms', 'get', 'form_x'], {
        env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: `http://127.0.0.1:${port}` },
      }).exit;
      expect(code, output).toBe(1);
      expect(output).toContain(`Waiting for 127.0.0.1:${port}…`);
      // The spinner's line is blanked, so the error starts a clean line of its own.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing colour escapes is the point.
      const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
      const errorLines = plain.split(/\r?\n/).filter((line) => line.includes('error: timeout'));
      expect(errorLines).toHaveLength(1);
      // What the terminal shows of that line: after the last carriage return, the error alone.
      expect(errorLines[0]!.split('\r').at(-1)).toMatch(/^error: timeout: /);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('signing up and in at a terminal', () => {
  it('signup says a password is too short before asking for it again', async () => {
    const home = await newHome();
    const terminal = onTerminal(home, ['signup', '--email', uniqueEmail('short')]);
    await terminal.waitFor('Password: ');
    await terminal.type('short\r');
    const { code, output } = await terminal.exit;
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
    const { email } = await signupWithCli(owner, server.baseUrl);
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

describe('replacing a form\'s fields on a terminal', () => {
  it('asks first, naming what would be dropped; "n" changes nothing (exit 3), "y" replaces', async () => {
    const home = await newHome();
    await signupWithCli(home, server.baseUrl);
    const created = await home.lfk(['forms', 'create', '--name', 'Asked', '--field', 'email:email', '--field', 'fax:tel', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const id: string = created.json.id;

    const no = onTerminal(home, ['forms', 'update', id, '--field', 'email:email']);
    await no.waitFor('"fax" will be removed. Continue? [y/N] ');
    await no.type('n\r');
    const declined = await no.exit;
    expect(declined.code, declined.output).toBe(3);
    expect(declined.output).toContain('Nothing was changed.');
    expect((await home.lfk(['forms', 'get', id, '--json'])).json.schema).toHaveLength(2);

    const yes = onTerminal(home, ['forms', 'update', id, '--field', 'email:email']);
    await yes.waitFor('Continue? [y/N] ');
    await yes.type('y\r');
    expect((await yes.exit).code).toBe(0);
    expect((await home.lfk(['forms', 'get', id, '--json'])).json.schema.map((f: any) => f.name)).toEqual(['email']);
  });
});

describe('help and version', () => {
  let home: Home;
  beforeAll(async () => {
    home = await newHome();
  });

  it.each([[[]], [['workspaces']], [['keys']], [['forms']], [['submissions']]])('lfk %j --help has examples', async (group) => {
    const result = await home.lfk([...group, '--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('$ lfk ');
    expect(result.stdout).not.toMatch(ESC);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(await readFile(join(import.meta.dirname, '../package.json'), 'utf8'));
    const result = await home.lfk(['--version']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });
});
