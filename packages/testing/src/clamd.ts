import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { spawnDaemon } from './daemon.ts';
import { freePort } from './ports.ts';

/** Debian's ClamAV daemon (`apt-get install clamav-daemon`). */
const CLAMD = '/usr/sbin/clamd';
const INSTALL_HINT = 'sudo apt-get install -y clamav-daemon';

/**
 * The EICAR test file: harmless, and found by every scanner as if it were malware. Written here
 * from its parts, so that no scanner on a developer's machine takes this source for infected.
 */
export const EICAR = `X5O!P%@AP[4\\PZX54(P^)7CC)7}$${'EICAR'}-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*`;
/** The name clamd gives EICAR with the test world's database (`.UNOFFICIAL`: not a signed ClamAV database). */
export const EICAR_SIGNATURE = 'Lfk.Test.EICAR.UNOFFICIAL';

/** A real clamd, started by `startClamd`. */
export interface Clamd {
  /** `tcp://127.0.0.1:<port>`. */
  url: string;
  /** Its unix socket's absolute path (also a valid `LFK_CLAMD_URL`). */
  socketPath: string;
  /** Stops clamd (SIGTERM, then SIGKILL past a limit) and removes its folder. */
  close(): Promise<void>;
}

/**
 * Whether clamd is installed. Without it, tests that need it are skipped (`describeWithClamd`),
 * saying so once; CI sets LFK_REQUIRE_CLAMD=1, which makes a missing clamd a failure.
 */
export const clamdInstalled = existsSync(CLAMD);
let noticeGiven = false;

/** A suite that needs a real clamd: skipped, with a one-line notice, where none is installed. */
export function describeWithClamd(name: string, body: () => void): void {
  if (!clamdInstalled) {
    if (process.env.LFK_REQUIRE_CLAMD === '1') throw new Error(`LFK_REQUIRE_CLAMD=1 but ${CLAMD} is not installed: ${INSTALL_HINT}`);
    if (!noticeGiven) process.stderr.write(`\n⚠ clamd tests SKIPPED: ${CLAMD} not found. To run them, ${INSTALL_HINT}.\n\n`);
    noticeGiven = true;
  }
  (clamdInstalled ? describe : describe.skip)(name, body);
}

/** Limits, never verdicts: clamd loads its one-signature database in about a second on a quiet machine. */
const START_LIMIT_MS = 60_000;

/**
 * Starts Debian's clamd in a folder of its own, listening on a free 127.0.0.1 port and on a unix
 * socket, with a database holding one signature: EICAR's body, found anywhere in a stream (so a
 * large file with EICAR at its end is infected). No network and no freshclam are needed. Resolves
 * once clamd answers PING.
 */
export async function startClamd(options: { streamMaxLength?: string } = {}): Promise<Clamd> {
  const dir = await mkdtemp(join(tmpdir(), 'lfk-clamd-'));
  const database = join(dir, 'db');
  await mkdir(database);
  await writeFile(join(database, 'lfk-test.ndb'), `${EICAR_SIGNATURE.replace(/\.UNOFFICIAL$/, '')}:0:*:${Buffer.from(EICAR).toString('hex')}\n`);
  const port = await freePort();
  const socketPath = join(dir, 'clamd.sock');
  const config = [
    'Foreground yes',
    `LocalSocket ${socketPath}`,
    `TCPSocket ${port}`,
    'TCPAddr 127.0.0.1',
    `DatabaseDirectory ${database}`,
    `TemporaryDirectory ${dir}`,
    `StreamMaxLength ${options.streamMaxLength ?? '25M'}`,
    // No reloads in a test's life: the database never changes.
    'SelfCheck 0',
  ];
  await writeFile(join(dir, 'clamd.conf'), `${config.join('\n')}\n`);

  const clamd = spawnDaemon(CLAMD, ['--config-file', join(dir, 'clamd.conf')]);
  const close = async () => {
    await clamd.stop();
    await rm(dir, { recursive: true, force: true });
  };
  await clamd.untilReady('clamd', () => answersPing(port), {
    limitMs: START_LIMIT_MS,
    everyMs: 100,
    notReady: `no PONG within ${START_LIMIT_MS} ms`,
    giveUp: close,
  });
  return { url: `tcp://127.0.0.1:${port}`, socketPath, close };
}

/** One PING over TCP: true on PONG, false on anything else (not listening yet, closed). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(5_000, () => done(false));
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (data) => {
      answer += data.toString();
      if (answer.includes('\0')) done(answer === 'PONG\0');
    });
    socket.on('error', () => done(false));
    socket.on('end', () => done(false));
  });
}
