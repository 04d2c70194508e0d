import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { spawnDaemon } from './daemon.ts';
import { freePort } from './ports.ts';

/** Debian's rspamd (`apt-get install rspamd`), and the Redis its Bayes learns into (`redis-server`). */
const RSPAMD = '/usr/bin/rspamd';
const REDIS = '/usr/bin/redis-server';
const INSTALL_HINT = 'sudo apt-get install -y rspamd redis-server';

/**
 * GTUBE, the Generic Test for Unsolicited Bulk Email: harmless text every spam filter takes for
 * spam (rspamd: the `GTUBE` symbol, its action "reject"). Written from its parts, so that no
 * filter on a developer's machine takes this source for spam.
 */
export const GTUBE = `XJS*C4JDBQADN1.NSBN3*2IDNEN*${'GTUBE'}-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X`;

/** A real rspamd, started by `startRspamd`. */
export interface Rspamd {
  /** Its controller worker (`/checkv2`, `/learnspam`, `/learnham`, `/ping`): what `LFK_RSPAMD_URL` takes. */
  url: string;
  /** Messages its Bayes has learned (`/stat`): what lfk's marks taught it. */
  learned(): Promise<number>;
  close(): Promise<void>;
}

export const rspamdInstalled = existsSync(RSPAMD) && existsSync(REDIS);
let noticeGiven = false;

/** A suite that needs a real rspamd: skipped, with a one-line notice, where none is installed; CI (LFK_REQUIRE_RSPAMD=1) fails instead. */
export function describeWithRspamd(name: string, body: () => void): void {
  if (!rspamdInstalled) {
    if (process.env.LFK_REQUIRE_RSPAMD === '1') throw new Error(`LFK_REQUIRE_RSPAMD=1 but ${RSPAMD} or ${REDIS} is not installed: ${INSTALL_HINT}`);
    if (!noticeGiven) process.stderr.write(`\n⚠ rspamd tests SKIPPED: ${RSPAMD} or ${REDIS} not found. To run them, ${INSTALL_HINT}.\n\n`);
    noticeGiven = true;
  }
  (rspamdInstalled ? describe : describe.skip)(name, body);
}

/** Limits, never verdicts: rspamd compiles its rules and TLD list in about ten seconds on a quiet machine. */
const START_LIMIT_MS = 120_000;

/** Modules that ask the network (DNS lists, SPF, DKIM keys), or keep state in Redis the tests do not read. */
const OFF = ['rbl', 'spf', 'dkim', 'dmarc', 'asn', 'surbl', 'url_redirector', 'phishing', 'fuzzy_check', 'dkim_signing', 'arc'];
const OFF_TOO = ['neural', 'greylist', 'ratelimit', 'replies', 'metadata_exporter', 'history_redis', 'emails', 'dcc', 'clickhouse'];

/** The uid and gid of a system account, from /etc/passwd. */
function accountOf(name: string): { uid: number; gid: number } | null {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function chownAll(path: string, owner: { uid: number; gid: number }): Promise<void> {
  await chown(path, owner.uid, owner.gid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) await chownAll(child, owner);
    else await chown(child, owner.uid, owner.gid);
  }
}

/**
 * Starts Debian's rspamd on its own configuration (the package's, with local overrides in a
 * folder of the test's): the normal and controller workers on free 127.0.0.1 ports, no proxy or
 * fuzzy worker, the modules that need the network off. As root (CI) it runs as the package's
 * `_rspamd` account. Resolves once the controller answers `/ping`.
 */
export async function startRspamd(): Promise<Rspamd> {
  const dir = await mkdtemp(join(tmpdir(), 'lfk-rspamd-'));
  for (const sub of ['local.d', 'override.d', 'db', 'run', 'log']) await mkdir(join(dir, sub));
  const [normal, controller, redisPort] = [await freePort(), await freePort(), await freePort()];
  await writeFile(join(dir, 'local.d', 'redis.conf'), `servers = "127.0.0.1:${redisPort}";\n`);
  await writeFile(join(dir, 'local.d', 'worker-normal.inc'), `bind_socket = "127.0.0.1:${normal}";\n`);
  await writeFile(join(dir, 'local.d', 'worker-controller.inc'), `bind_socket = "127.0.0.1:${controller}";\n`);
  // No resolver to wait for: a lookup fails at once.
  await writeFile(join(dir, 'local.d', 'options.inc'), 'dns { timeout = 0.2s; retransmits = 1; nameserver = ["127.0.0.1:1"]; }\n');
  for (const worker of ['worker-proxy.inc', 'worker-fuzzy.inc']) await writeFile(join(dir, 'override.d', worker), 'enabled = false;\n');
  for (const module of [...OFF, ...OFF_TOO]) await writeFile(join(dir, 'override.d', `${module}.conf`), 'enabled = false;\n');

  const vars = ['LOCAL_CONFDIR', 'DBDIR', 'RUNDIR', 'LOGDIR'].map(
    (name, i) => `--var=${name}=${[dir, join(dir, 'db'), join(dir, 'run'), join(dir, 'log')][i]}`,
  );
  const asRoot = process.getuid?.() === 0;
  const account = asRoot ? accountOf('_rspamd') : null;
  if (asRoot && !account) throw new Error('rspamd refuses to run as root, and the _rspamd account is missing: reinstall rspamd');
  if (account) await chownAll(dir, account);
  const args = ['-f', '-c', '/etc/rspamd/rspamd.conf', ...vars, ...(account ? ['-u', '_rspamd', '-g', '_rspamd'] : [])];
  // Redis first, in memory only (no dump, no append-only file): rspamd connects to it lazily.
  const redis = spawnDaemon(REDIS, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]);
  const rspamd = spawnDaemon(RSPAMD, args);
  const close = async () => {
    await rspamd.stop();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${controller}`;
  await rspamd.untilReady('rspamd', () => answersPing(url), {
    limitMs: START_LIMIT_MS,
    everyMs: 200,
    notReady: `no pong within ${START_LIMIT_MS} ms`,
    giveUp: close,
  });
  const learned = async () => {
    const stat = (await (await fetch(`${url}/stat`)).json()) as { learned: number };
    return stat.learned;
  };
  return { url, learned, close };
}

async function answersPing(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(5000) });
    return res.ok && (await res.text()).trim() === 'pong';
  } catch {
    return false;
  }
}
