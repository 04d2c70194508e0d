/**
 * The scanner behind `LFK_CLAMD_URL`, against a real clamd (Debian's, with the test world's EICAR
 * database) over TCP and its unix socket, and against servers that are not clamd or do not answer.
 * Without clamd installed, the suites that need it are skipped with a notice.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clamd, describeWithClamd, EICAR, EICAR_SIGNATURE, freePort, startClamd, thrown } from '@lfk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { malwareScannerFrom, parseClamdUrl } from './clamd-scanner.ts';
import { ScannerUnavailable } from './malware-scanner.ts';

const MiB = 1024 * 1024;
let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lfk-scan-'));
  await writeFile(file('eicar.txt'), EICAR);
  await writeFile(file('clean.txt'), 'Name: Ada\nMessage: nothing to see here\n');
  const large = randomBytes(20 * MiB);
  await writeFile(file('large-clean.bin'), large);
  // EICAR after 20 MiB: found only if every chunk reached clamd.
  await writeFile(file('large-infected.bin'), Buffer.concat([large, Buffer.from(EICAR)]));
  await writeFile(file('3mib.bin'), randomBytes(3 * MiB));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('LFK_CLAMD_URL', () => {
  it('takes tcp://host:port (3310 by default), unix:///path and an absolute socket path', () => {
    expect(parseClamdUrl('tcp://127.0.0.1:3311')).toEqual({ host: '127.0.0.1', port: 3311 });
    expect(parseClamdUrl('tcp://clamav')).toEqual({ host: 'clamav', port: 3310 });
    expect(parseClamdUrl('tcp://[::1]:3310/')).toEqual({ host: '::1', port: 3310 });
    expect(parseClamdUrl('unix:///run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
    expect(parseClamdUrl('/run/clamav/clamd.ctl')).toEqual({ path: '/run/clamav/clamd.ctl' });
  });

  it.each(['http://clamav:3310', 'clamav:3310', 'run/clamd.ctl', 'tcp://clamav:3310/scan', 'tcp://user:pw@clamav', 'unix://host/clamd.ctl', 'unix:///'])(
    'refuses %s',
    (url) => {
      expect(() => parseClamdUrl(url)).toThrow(/tcp:\/\/host:port, unix:\/\/\/path/);
    },
  );
});

describeWithClamd('a real clamd', () => {
  let clamd: Clamd;
  beforeAll(async () => {
    clamd = await startClamd({ streamMaxLength: '32M' });
  });
  afterAll(() => clamd?.close());

  const forms = [
    ['tcp://', () => clamd.url],
    ['a socket path', () => clamd.socketPath],
    ['unix://', () => `unix://${clamd.socketPath}`],
  ] as const;

  describe.each(forms)('reached by %s', (_form, url) => {
    it('finds EICAR by its signature, passes a clean file and answers PING', async () => {
      const scanner = malwareScannerFrom(url());
      expect(await scanner.scan(file('eicar.txt'))).toEqual({ infected: true, signature: EICAR_SIGNATURE });
      expect(await scanner.scan(file('clean.txt'))).toEqual({ infected: false });
      await expect(scanner.ping()).resolves.toBeUndefined();
      await scanner.close();
    });
  });

  it('streams a 20 MiB file whole: clean is clean, and EICAR at its very end is found', async () => {
    const scanner = malwareScannerFrom(clamd.url);
    expect(await scanner.scan(file('large-clean.bin'))).toEqual({ infected: false });
    expect(await scanner.scan(file('large-infected.bin'))).toEqual({ infected: true, signature: EICAR_SIGNATURE });
  });

  it('scans files side by side, each on its own connection', async () => {
    const scanner = malwareScannerFrom(clamd.socketPath);
    const verdicts = await Promise.all(['eicar.txt', 'clean.txt', 'large-clean.bin', 'eicar.txt'].map((name) => scanner.scan(file(name))));
    expect(verdicts.map((verdict) => verdict.infected)).toEqual([true, false, false, true]);
  });

  it('throws a missing file as it is, without asking clamd', async () => {
    const error = await thrown(malwareScannerFrom(clamd.url).scan(file('never-written.bin')));
    expect(error).not.toBeInstanceOf(ScannerUnavailable);
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  });
});

describeWithClamd('a clamd that refuses the file, then stops', () => {
  it('is unavailable for a file over its StreamMaxLength, saying so; stopped, it is unavailable at once', async () => {
    const small = await startClamd({ streamMaxLength: '1M' });
    const [tcp, socket] = [malwareScannerFrom(small.url), malwareScannerFrom(small.socketPath)];
    try {
      for (const scanner of [tcp, socket]) {
        const refused = await thrown(scanner.scan(file('3mib.bin')));
        expect(refused).toBeInstanceOf(ScannerUnavailable);
        expect(refused.message).toMatch(/larger than its StreamMaxLength/);
        // The refusal is of that file only.
        expect(await scanner.scan(file('eicar.txt'))).toEqual({ infected: true, signature: EICAR_SIGNATURE });
      }
    } finally {
      await small.close();
    }
    for (const [scanner, code] of [
      [tcp, 'ECONNREFUSED'],
      [socket, 'ENOENT'],
    ] as const) {
      const error = await thrown(scanner.scan(file('eicar.txt')));
      expect(error).toBeInstanceOf(ScannerUnavailable);
      expect(error.message).toContain(code);
      await expect(scanner.ping()).rejects.toBeInstanceOf(ScannerUnavailable);
    }
  });
});

describe('no clamd where LFK_CLAMD_URL points', () => {
  it('is unavailable on a port nobody listens on, or a socket that does not exist', async () => {
    for (const url of [`tcp://127.0.0.1:${await freePort()}`, join(dir, 'no-such.sock'), `unix://${join(dir, 'no-such.sock')}`]) {
      const error = await thrown(malwareScannerFrom(url).scan(file('eicar.txt')));
      expect(error, url).toBeInstanceOf(ScannerUnavailable);
      expect(error.message, url).toMatch(/cannot be reached \((ECONNREFUSED|ENOENT)\)/);
    }
  });

  describe('a server that accepts and never answers', () => {
    const held = new Set<Socket>();
    let reading: Server;
    let notReading: Server;
    const listen = async (onConnection: (socket: Socket) => void) => {
      const server = createServer((socket) => {
        held.add(socket);
        onConnection(socket);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    };
    const urlOf = (server: Server) => `tcp://127.0.0.1:${(server.address() as { port: number }).port}`;
    beforeAll(async () => {
      reading = await listen((socket) => socket.resume());
      notReading = await listen((socket) => socket.pause());
    });
    afterAll(async () => {
      for (const socket of held) socket.destroy();
      await Promise.all([reading, notReading].map((server) => new Promise((resolve) => server.close(resolve))));
    });

    // The short deadline ends the wait; nothing else would, so the verdict does not depend on time.
    it('is unavailable once the deadline passes, whether it reads the file or stops reading it', async () => {
      const cases = [
        [reading, 'eicar.txt'],
        [notReading, 'large-clean.bin'],
      ] as const;
      for (const [server, name] of cases) {
        const scanner = malwareScannerFrom(urlOf(server), { timeoutMs: 300 });
        const error = await thrown(scanner.scan(file(name)));
        expect(error).toBeInstanceOf(ScannerUnavailable);
        expect(error.message).toMatch(/did not answer within 300 ms/);
      }
      const pinged = await thrown(malwareScannerFrom(urlOf(reading), { timeoutMs: 300 }).ping());
      expect(pinged).toBeInstanceOf(ScannerUnavailable);
    });
  });

  it('is unavailable when something else answers (not a clamd answer)', async () => {
    // It reads on, so it sees the scanner hang up and its socket closes.
    const http = createServer((socket) => socket.resume().end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const error = await thrown(malwareScannerFrom(`tcp://127.0.0.1:${(http.address() as { port: number }).port}`).scan(file('clean.txt')));
      expect(error).toBeInstanceOf(ScannerUnavailable);
      expect(error.message).toMatch(/could not scan the file: HTTP\/1.1 400 Bad Request/);
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
