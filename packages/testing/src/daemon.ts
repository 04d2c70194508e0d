import { spawn } from 'node:child_process';

/** A Debian daemon a test started (clamd, rspamd, Redis), in the foreground as a child process. */
export interface Daemon {
  /** Its last 4,000 characters of standard output and error. */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL past a limit); resolves once it has exited. */
  stop(): Promise<void>;
  /**
   * Polls `ready` until it answers true. Fails with the daemon's output if it exits first or is
   * not ready within `limitMs`, after calling `giveUp` (which stops it and cleans up).
   */
  untilReady(
    name: string,
    ready: () => Promise<boolean>,
    options: { limitMs: number; everyMs: number; notReady: string; giveUp(): Promise<void> },
  ): Promise<void>;
}

/** Limits, never verdicts. */
const STOP_LIMIT_MS = 30_000;

/** Starts `command`; a test worker that dies leaves no daemon behind (SIGKILL at its exit). */
export function spawnDaemon(command: string, args: string[]): Daemon {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (data: Buffer) => {
    output = (output + data.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      output += error.message;
      resolve();
    });
  }).then(() => {
    gone = true;
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  return {
    output: () => output,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
      await exited;
      clearTimeout(killer);
    },
    async untilReady(name, ready, { limitMs, everyMs, notReady, giveUp }) {
      const started = Date.now();
      while (!(await ready())) {
        if (gone || Date.now() - started > limitMs) {
          await giveUp();
          throw new Error(`${name} did not start (${gone ? `exited with ${child.exitCode ?? child.signalCode}` : notReady}):\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    },
  };
}
