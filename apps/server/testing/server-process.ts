import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET_KEY } from '@lfk/testing';

/** The server's entry point, `npm start`'s file. */
const SERVER_MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/**
 * The real entry point as `npm start` runs it, in a child process with exactly `env` (plus PATH,
 * and the test servers' `LFK_SECRET_KEY` unless `env` names one).
 * Resolves once the server says it listens; `output()` is everything it printed so far.
 */
export async function spawnServerProcess(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  let output = '';
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { PATH: process.env.PATH, LFK_SECRET_KEY: TEST_SECRET_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  // A PGlite server starting while the machine is loaded can take tens of seconds.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (output.includes('lfk is listening')) return { child, output: () => output };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output}`);
}

/**
 * Confirms the address of the account just signed up on a spawned server, as its person would:
 * the link the server printed (no SMTP there), then its "Verify" button. Keys, webhooks and
 * invitations need a confirmed address.
 */
export async function confirmPrintedAddress(baseUrl: string, output: () => string): Promise<void> {
  const link = () => /\/v1\/email-verifications\/(lfv_[0-9A-Za-z]+)/.exec(output())?.[1];
  const deadline = Date.now() + 30_000;
  while (link() === undefined) {
    if (Date.now() > deadline) throw new Error(`no confirmation link was printed:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const res = await fetch(`${baseUrl}/v1/email-verifications/${link()}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (res.status !== 200) throw new Error(`address confirmation failed: ${res.status}`);
}
