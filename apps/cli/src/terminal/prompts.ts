import { createInterface } from 'node:readline/promises';
import { CliError, declined, EXIT_INTERRUPTED, usageError } from '../errors.ts';
import { inert } from '../output/inert.ts';
import { io } from './io.ts';

/** Prompts need a person: a terminal on stdin to type into and on stderr to read the question. */
export function canPrompt(): boolean {
  const { stdin, stderr } = io();
  return stdin.isTTY === true && stderr.isTTY === true;
}

/** Refuses, with what to pass instead, when a prompt is needed and nobody is there to answer it. */
export function requirePrompt(what: string, instead: string): void {
  if (!canPrompt()) throw usageError('prompt_unavailable', `Cannot ask for ${what}: standard input is not a terminal.`, `Pass ${instead}.`);
}

const cancelled = () => new CliError('interrupted', 'Cancelled.', { exitCode: EXIT_INTERRUPTED });

export async function promptLine(question: string): Promise<string> {
  const { stdin, stderr } = io();
  const rl = createInterface({ input: stdin, output: stderr, terminal: true });
  try {
    const closed = new Promise<never>((_, reject) =>
      rl.once('close', () => {
        stderr.write('\n'); // so the error does not land on the prompt's line
        reject(cancelled());
      }),
    );
    return (await Promise.race([rl.question(inert(question)), closed])).trim();
  } finally {
    rl.close();
  }
}

/** Asks a yes/no question; only "y" or "yes" is yes. */
export async function confirm(question: string): Promise<boolean> {
  return /^y(es)?$/i.test(await promptLine(`${question} [y/N] `));
}

/**
 * Asks before doing what cannot be undone: refused without a terminal (saying to pass `instead`,
 * e.g. `--yes to revoke without asking`), and a "no" ends the command (exit 3) saying `nothingDone`.
 */
export async function confirmOrStop(question: string, instead: string, nothingDone: string): Promise<void> {
  requirePrompt('confirmation', instead);
  if (!(await confirm(question))) throw declined(nothingDone);
}

// Escape sequences (arrows, bracketed paste markers) are not part of a password.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point.
const ESCAPES = /\u001b\[[0-9;]*[~A-Za-z]|\u001b./g;

/** Reads a line with the terminal's echo off: nothing typed is shown, not even stars. */
export function promptHidden(question: string): Promise<string> {
  // Only ever asked on a terminal (canPrompt), whose stdin is a tty.ReadStream.
  const { stderr } = io();
  const stdin = io().stdin as NodeJS.ReadStream;
  stderr.write(inert(question));
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk.replace(ESCAPES, '')) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003' || (char === '\u0004' && value === '')) {
          finish();
          reject(cancelled());
          return;
        }
        if (char === '\u007f' || char === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (char === '\u0015') value = '';
        else if (char >= ' ') value += char;
      }
    };
    stdin.on('data', onData);
  });
}

const STDIN_LIMIT = 4 * 1024 * 1024;

/** All of standard input, as text. */
export async function readStdin(what: string): Promise<string> {
  const { stdin } = io();
  if (stdin.isTTY) throw usageError('stdin_is_terminal', `Expected ${what} on standard input, but it is a terminal.`, 'Pipe it in, e.g. with < file.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    size += (chunk as Buffer).length;
    if (size > STDIN_LIMIT) throw usageError('input_too_large', `${what} on standard input is larger than 4 MiB.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
