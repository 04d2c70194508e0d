import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one run of the CLI reads and writes: its standard streams and its environment. The bin
 * runs on the process's own; tests run commands in process, each with streams and an environment
 * of its own, so two runs at once never see each other's.
 */
export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

const runs = new AsyncLocalStorage<Io>();

const processIo = (): Io => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });

/** The streams and environment of the run in progress; the process's own outside of `withIo`. */
export const io = (): Io => runs.getStore() ?? processIo();

/** Runs `body` (and everything it starts) on `streams`. */
export const withIo = <T>(streams: Io, body: () => T): T => runs.run(streams, body);
