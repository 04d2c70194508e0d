/**
 * What a person at a real terminal sees: hidden password prompts, questions, colour, Ctrl-C, and the
 * shell completion scripts. A real TTY comes from util-linux `script`, which runs the CLI on a pty.
 * This module holds the server, the homes and the terminal the files beside it share.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Home, LFK_BIN, server, startWorld as startHarnessWorld } from '../harness.ts';

export { newHome, server, stopWorld } from '../harness.ts';

/** A server for the CLI to talk to, nobody signed up to it yet; every home made with `newHome` is removed at the end. */
export const startWorld = () => startHarnessWorld({ owner: false });

export const uniqueEmail = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
export const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes is the point.
export const ESC = /\u001b\[/;
export const STACK_FRAME = /^\s+at .+:\d+:\d+\)?\s*$/m;

/**
 * The lines a terminal shows for `output`: a carriage return goes back to the line's start and what
 * follows overwrites what was there (as the slow-request spinner's clearing does); blank lines dropped.
 */
export function screenLines(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((line) =>
      line
        .split('\r')
        .reduce((shown, written) => written + shown.slice(written.length), '')
        .trimEnd(),
    )
    .filter((line) => line !== '');
}

export async function readConfig(home: Home): Promise<any> {
  return existsSync(home.configPath) ? JSON.parse(await readFile(home.configPath, 'utf8')) : undefined;
}

export interface TerminalOptions {
  env?: Record<string, string>;
  /** Shell text run on the same terminal after lfk exits, e.g. `; echo EXIT=$?; stty -a`. */
  after?: string;
  /** The terminal's width; 120 unless a test is about narrow ones. */
  columns?: number;
  timeoutMs?: number;
}

export interface Terminal {
  /** Resolves once `text` has appeared in the terminal output after everything waited for so far. */
  waitFor(text: string): Promise<void>;
  /** Types into the terminal (only call it once the prompt has been waited for). */
  type(text: string): Promise<void>;
  /** Everything the terminal showed, and the exit code `script -e` passed on from the command. */
  exit: Promise<{ code: number | null; output: string }>;
  /** Waits for each prompt in turn and types its answer (`[prompt, typed]`), then for the exit. */
  answer(...exchanges: [prompt: string, typed: string][]): Promise<{ code: number | null; output: string }>;
}

/**
 * Runs `lfk <args>` on a pseudo-terminal with `script`: stdin, stdout and stderr are all the pty.
 * Everything the terminal displays (prompts, echo, output) is collected; the run is killed on timeout.
 */
export function onTerminal(home: Home, args: string[], options: TerminalOptions = {}): Terminal {
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

  const terminal: Terminal = {
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
    answer: async (...exchanges) => {
      for (const [prompt, typed] of exchanges) {
        await terminal.waitFor(prompt);
        await terminal.type(typed);
      }
      return exit;
    },
  };
  return terminal;
}
