import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { LfkServer } from '@lfk/server';
import { emailsSentTo, linkTokenSentTo, PASSWORD, startTestServer, type TestServerOptions } from '@lfk/server/testing';
import { run } from '../src/run.ts';

/** The CLI exactly as `npx lfk` runs it: its bin, under this Node. */
export const LFK_BIN = join(import.meta.dirname, '../bin/lfk.js');

export { PASSWORD };

export interface LfkServerUnderTest {
  server: LfkServer;
  /** `http://127.0.0.1:<port>`: a real listening socket, as the CLI needs. */
  baseUrl: string;
  /** Every JSON log line the server wrote. */
  logs: string[];
  /** Raw SQL against the server's database. */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * The server tests' own server (the worker's database, rate limits off), listening on a random port of
 * 127.0.0.1, since the CLI needs a real socket.
 */
export async function startServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<LfkServerUnderTest> {
  const started = await startTestServer({ HOST: '127.0.0.1', ...env }, options);
  const port = new URL(await started.server.listen()).port;
  return {
    server: started.server,
    baseUrl: `http://127.0.0.1:${port}`,
    logs: started.logs,
    sql: started.sql,
    close: started.close,
  };
}

export interface LfkResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or undefined if it is not JSON. */
  json: any;
}

export interface LfkOptions {
  /** Added to the run's environment (which is otherwise only PATH, HOME and XDG_CONFIG_HOME). */
  env?: Record<string, string>;
  /** Written to standard input, which is then closed. Without it stdin is empty, not a terminal. */
  input?: string;
  timeoutMs?: number;
}

/** A temporary HOME for one test file: the CLI's config lives under it and nowhere else. */
export interface Home {
  dir: string;
  /** `$XDG_CONFIG_HOME/lfk/config.json` under this home. */
  configPath: string;
  /** Runs `lfk <args>` in this process, with this home; never throws on a non-zero exit. */
  lfk(args: string[], options?: LfkOptions): Promise<LfkResult>;
  /** The same, through the real bin in a child process: for what only a process shows (signals, the bin itself). */
  spawn(args: string[], options?: LfkOptions): Promise<LfkResult>;
  remove(): Promise<void>;
}

export async function tempHome(defaults: Record<string, string> = {}): Promise<Home> {
  const dir = await mkdtemp(join(tmpdir(), 'lfk-cli-home-'));
  const configHome = join(dir, '.config');
  return {
    dir,
    configPath: join(configHome, 'lfk', 'config.json'),
    lfk: (args, options = {}) => runLfk(args, { ...options, env: { HOME: dir, XDG_CONFIG_HOME: configHome, ...defaults, ...options.env } }),
    spawn: (args, options = {}) => spawnLfk(args, { ...options, env: { HOME: dir, XDG_CONFIG_HOME: configHome, ...defaults, ...options.env } }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** What a command printed and how it ended, with stdout read as JSON when it is JSON. */
function result(code: number | null, stdout: string, stderr: string): LfkResult {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

/** A stream that keeps what is written to it, as text. */
function collector(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * Runs `lfk <args>` in this process, as the bin would (`run` from src/run.ts, which is all the bin
 * adds to Node), on streams of its own: stdout and stderr collected, stdin `input` or empty, neither
 * a terminal. The environment is built from scratch, so a developer's own LFK_* variables never leak in.
 */
export async function runLfk(args: string[], options: LfkOptions = {}): Promise<LfkResult> {
  const stdout = collector();
  const stderr = collector();
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  let timer: NodeJS.Timeout | undefined;
  const tooLong = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`lfk ${args.join(' ')} did not finish in time\nstdout: ${stdout.text()}\nstderr: ${stderr.text()}`)),
      options.timeoutMs ?? 30_000,
    );
  });
  try {
    const env = { PATH: process.env.PATH ?? '', ...options.env };
    const code = await Promise.race([run(args, { stdin, stdout: stdout.stream, stderr: stderr.stream, env }), tooLong]);
    return result(code, stdout.text(), stderr.text());
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Spawns the CLI's bin without blocking this process's event loop (the server under test runs here
 * too). The environment is built from scratch, as for runLfk.
 */
export function spawnLfk(args: string[], options: LfkOptions = {}): Promise<LfkResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LFK_BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`lfk ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(result(code, stdout, stderr));
    });
    child.stdin.on('error', () => {}); // the CLI may exit before reading its input
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Signs a new account up through the CLI (password on stdin) on `on` (through `baseUrl`, when
 * given: a hop in front of it) and answers its email and workspace. Its address is then confirmed
 * as its person would, with the link the server printed (keys, webhooks and invitations need it),
 * unless `confirmed` is false.
 */
export async function signupWithCli(
  home: Home,
  on: LfkServerUnderTest,
  {
    email = `owner-${Math.random().toString(36).slice(2, 10)}@example.com`,
    confirmed = true,
    baseUrl = on.baseUrl,
  }: { email?: string; confirmed?: boolean; baseUrl?: string } = {},
) {
  const result = await home.lfk(['signup', '--email', email, '--password-stdin', '--json'], {
    input: `${PASSWORD}\n`,
    env: { LFK_BASE_URL: baseUrl },
  });
  if (result.code !== 0) throw new Error(`signup failed: ${result.stderr}`);
  if (confirmed) {
    const token = await linkTokenSentTo(on, email, 'account_verification');
    const confirmation = await fetch(`${on.baseUrl}/v1/email-verifications/${token}`, { method: 'POST' });
    if (confirmation.status !== 200) throw new Error(`address confirmation failed: ${confirmation.status}`);
  }
  return { email, userId: result.json.user.id as string, workspaceId: result.json.workspace.id as string };
}

// One world a test file: the server under test and every home made for the file. `startWorld` (in
// beforeAll) fills in these bindings and `stopWorld` (in afterAll) closes the server and removes the
// homes, so each file starts as a person with a fresh machine and a fresh server would.

export let server: LfkServerUnderTest;
/** Signed up through the CLI by startWorld; its base URL comes from the config that signup wrote. */
export let owner: Home;
export let ownerEmail: string;
/** The owner's personal workspace. */
export let workspaceId: string;
const homes: Home[] = [];

/** The server (with `env`) and, unless `owner` is false, an owner signed up to it. */
export async function startWorld(options: { env?: Record<string, string>; owner?: boolean; server?: TestServerOptions } = {}): Promise<void> {
  server = await startServer(options.env, options.server);
  if (options.owner === false) return;
  owner = await tempHome();
  homes.push(owner);
  ({ email: ownerEmail, workspaceId } = await signupWithCli(owner, server));
}

export async function stopWorld(): Promise<void> {
  await server?.close();
  await Promise.all(homes.splice(0).map((home) => home.remove()));
}

/** A home pointed at the server (LFK_BASE_URL), with `env` besides; removed by stopWorld. */
export async function newHome(env: Record<string, string> = {}): Promise<Home> {
  const home = await tempHome({ LFK_BASE_URL: server.baseUrl, ...env });
  homes.push(home);
  return home;
}

/**
 * The owner invites `email` into their workspace (lfk members invite) and `guest`, signed in with
 * that address, accepts the emailed link (lfk invitations accept): how anyone joins a workspace.
 */
export async function inviteAndAccept(guest: Home, email: string, role: 'member' | 'owner' = 'member'): Promise<void> {
  const before = emailsSentTo(server, email, 'invitation').length;
  const invited = await owner.lfk(['members', 'invite', email, '--role', role]);
  if (invited.code !== 0) throw new Error(`invite failed: ${invited.stderr}`);
  const token = await linkTokenSentTo(server, email, 'invitation', before + 1);
  const accepted = await guest.lfk(['invitations', 'accept', `${server.baseUrl}/invitations/${token}`]);
  if (accepted.code !== 0) throw new Error(`accept failed: ${accepted.stderr}`);
}

/** An API key the owner creates (`--name name`), as `keys create --json` prints it. */
export async function ownerKey(name: string): Promise<{ id: string; key: string; workspace_id: string }> {
  const created = await owner.lfk(['keys', 'create', '--name', name, '--json']);
  if (created.code !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  return created.json;
}

/**
 * A form of `home`'s workspace that takes submissions with a key, and a key: `submit` sends one
 * straight to the server (not through any hop) and answers its id.
 */
export async function keyedForm(home: Home, name: string): Promise<{ formId: string; submit(message: string): Promise<string> }> {
  const key = (await home.lfk(['keys', 'create', '--name', name, '--json'])).json.key as string;
  const form = await home.lfk(['forms', 'create', '--name', name, '--field', 'message:text', '--mode', 'api_key', '--json']);
  const formId = form.json.id as string;
  return {
    formId,
    submit: (message) =>
      fetch(`${server.baseUrl}/v1/forms/${formId}/submissions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      }).then(async (res) => ((await res.json()) as { id: string }).id),
  };
}

/** `lfk submissions list <form_id> --follow --json` through the real bin, as `home`, with `env`: what it prints, as it prints it. */
export function followSubmissions(home: Home, formId: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [LFK_BIN, 'submissions', 'list', formId, '--follow', '--json'], {
    env: { PATH: process.env.PATH ?? '', HOME: home.dir, XDG_CONFIG_HOME: join(home.dir, '.config'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let exited: number | null = null;
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.on('exit', (code) => (exited = code));
  const lines = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string } & Record<string, unknown>);
  return {
    lines,
    ids: () => lines().map((line) => line.id),
    stderr: () => stderr,
    exited: () => exited,
    stop: () => child.kill('SIGINT'),
  };
}
