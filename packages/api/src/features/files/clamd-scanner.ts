import { open } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { type MalwareScanner, ScannerUnavailable, type ScanVerdict } from './malware-scanner.ts';

/** Where clamd listens: a TCP host and port, or a unix socket. */
export type ClamdAddress = { host: string; port: number } | { path: string };

/** clamd's registered port, when `tcp://host` names none. */
const CLAMD_PORT = 3310;

/**
 * `LFK_CLAMD_URL`: `tcp://host[:port]` (port 3310 by default), `unix:///path/clamd.ctl`, or an
 * absolute socket path. Throws an Error saying what is expected otherwise.
 */
export function parseClamdUrl(url: string): ClamdAddress {
  if (url.startsWith('/')) return { path: url };
  const expected = 'Must be tcp://host:port, unix:///path/to/clamd.socket or an absolute socket path.';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(expected);
  }
  const bare = !parsed.username && !parsed.password && !parsed.search && !parsed.hash;
  if (parsed.protocol === 'unix:' && bare && !parsed.host && parsed.pathname.length > 1) return { path: decodeURIComponent(parsed.pathname) };
  if (parsed.protocol === 'tcp:' && bare && parsed.hostname && (parsed.pathname === '' || parsed.pathname === '/')) {
    return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: parsed.port ? Number(parsed.port) : CLAMD_PORT };
  }
  throw new Error(expected);
}

export interface ClamdScannerOptions {
  /** How long opening the connection may take. */
  connectTimeoutMs?: number;
  /** How long one exchange may take in all, connecting, sending the file and clamd's scan included. */
  timeoutMs?: number;
}

/**
 * Without the server's deadlines (derived from its idle timeout, half of it): tens of MiB sent and
 * scanned on a busy machine fit in 30 s; a local clamd connects at once.
 */
export const CLAMD_TIMEOUTS = { connectMs: 5_000, totalMs: 30_000 } as const;

/** Bytes read from disk and sent as one INSTREAM chunk. */
const CHUNK_BYTES = 64 * 1024;
const TERMINATOR = Buffer.alloc(4);
const OVER_STREAM_MAX_LENGTH = "larger than its StreamMaxLength: raise StreamMaxLength in clamd.conf above lfk's LFK_MAX_FILE_SIZE";
/** clamd's answers are one short line; more without its NUL is not clamd talking. */
const MAX_ANSWER_BYTES = 4096;

/**
 * ClamAV's daemon over its own protocol: each scan is one connection, `zINSTREAM` followed by the
 * file in length-prefixed chunks read from disk as they are sent (never the whole file in memory),
 * and one NUL-terminated answer. Holds no connection between scans.
 */
export class ClamdScanner implements MalwareScanner {
  readonly #address: ClamdAddress;
  readonly #where: string;
  readonly #connectTimeoutMs: number;
  readonly #timeoutMs: number;

  constructor(address: ClamdAddress, options: ClamdScannerOptions = {}) {
    this.#address = address;
    this.#where = 'path' in address ? address.path : `${address.host}:${address.port}`;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CLAMD_TIMEOUTS.connectMs;
    this.#timeoutMs = options.timeoutMs ?? CLAMD_TIMEOUTS.totalMs;
  }

  async scan(path: string): Promise<ScanVerdict> {
    // Opened first: a missing file is the caller's error, thrown before clamd is asked anything.
    const file = (await open(path)).createReadStream({ highWaterMark: CHUNK_BYTES });
    let answer: string;
    try {
      answer = await this.#exchange('zINSTREAM', (socket, signal) => pipeline(file, framed, socket, { signal, end: false }));
    } finally {
      file.destroy();
    }
    if (answer === 'stream: OK') return { infected: false };
    const found = /^stream: (.+) FOUND$/.exec(answer);
    if (found) return { infected: true, signature: found[1]! };
    if (answer.startsWith('INSTREAM size limit exceeded')) throw this.#unavailable(`refused the file as ${OVER_STREAM_MAX_LENGTH}`);
    throw this.#unavailable(`could not scan the file: ${answer}`);
  }

  /** Whether clamd answers (PING → PONG); for checks at start. Throws ScannerUnavailable otherwise. */
  async ping(): Promise<void> {
    const answer = await this.#exchange('zPING');
    if (answer !== 'PONG') throw this.#unavailable(`answered PING with ${JSON.stringify(answer)}`);
  }

  /** Nothing to release: each scan opens and closes its own connection. */
  async close(): Promise<void> {}

  #unavailable(why: string): ScannerUnavailable {
    return new ScannerUnavailable(`clamd at ${this.#where} ${why}`);
  }

  /**
   * Sends `command` (and what `send` writes after it), and resolves with clamd's answer up to its
   * NUL. Any way of not getting an answer in time is ScannerUnavailable. The socket's failures are
   * settled by its own events, which come before `send`'s rejection; what is left is the file's
   * (a read error), thrown as it is.
   */
  #exchange(command: string, send?: (socket: Socket, signal: AbortSignal) => Promise<unknown>): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const sending = new AbortController();
      const socket = connect(this.#address);
      let phase: 'connecting' | 'sending' | 'waiting' = 'connecting';
      let received = Buffer.alloc(0);
      let settled = false;
      const settle = (outcome: { answer: string } | { error: Error }) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        clearTimeout(deadline);
        sending.abort();
        socket.destroy();
        if ('answer' in outcome) resolve(outcome.answer);
        else reject(outcome.error);
      };
      const unavailable = (why: string) => settle({ error: this.#unavailable(why) });
      const connectTimer = setTimeout(() => unavailable(`did not accept a connection within ${this.#connectTimeoutMs} ms`), this.#connectTimeoutMs);
      const deadline = setTimeout(() => unavailable(`did not answer within ${this.#timeoutMs} ms`), this.#timeoutMs);
      /** The connection ended with no answer (`how`: an error code, or `closed`). */
      const lost = (how: string) => {
        if (received.length > 0) return settle({ answer: received.toString('utf8').trim() });
        if (phase === 'connecting') return unavailable(`cannot be reached (${how})`);
        // Over its StreamMaxLength, clamd answers and hangs up at once; what we still send may meet
        // the closed socket first (EPIPE, ECONNRESET) and the answer is lost with it.
        if (phase === 'sending')
          return unavailable(`closed the connection while the file was being sent (${how}), as it does with a file ${OVER_STREAM_MAX_LENGTH}`);
        unavailable(`closed the connection without answering (${how})`);
      };

      socket.on('data', (data: Buffer) => {
        received = Buffer.concat([received, data]);
        const end = received.indexOf(0);
        if (end >= 0) settle({ answer: received.subarray(0, end).toString('utf8').trim() });
        else if (received.length > MAX_ANSWER_BYTES) unavailable('answered with something that is not a clamd answer');
      });
      socket.on('end', () => lost('closed'));
      socket.on('error', (error: NodeJS.ErrnoException) => lost(error.code ?? error.message));
      socket.on('connect', () => {
        clearTimeout(connectTimer);
        socket.write(`${command}\0`);
        if (!send) {
          phase = 'waiting';
          return;
        }
        phase = 'sending';
        send(socket, sending.signal).then(
          () => {
            phase = 'waiting';
          },
          (error: Error) => settle({ error }),
        );
      });
    });
  }
}

/** INSTREAM's framing: each chunk after its length (4 bytes, big-endian), then a zero length. */
async function* framed(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.length);
    yield length;
    yield chunk;
  }
  yield TERMINATOR;
}

/** The scanner `LFK_CLAMD_URL` names. */
export function malwareScannerFrom(url: string, options?: ClamdScannerOptions): ClamdScanner {
  return new ClamdScanner(parseClamdUrl(url), options);
}
