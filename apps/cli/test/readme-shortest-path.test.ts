// The README's shortest path, pasted as a person pastes it: each `npx lfk …` line run by the CLI
// (in process), the `grep … lfk.log | tail -1` line by bash over the server's log, its link opened and
// "Verify" pressed; then the next thing the README tells an owner to do, `lfk keys create`. The
// server leaves its public URL unset, as `npm start` does. Two departures, each a person's own
// doing: the password the signup prompt asks for is given on standard input, and `--follow` (which
// waits for ever) is run without it once a submission came.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startTestServer, type TestServer, until } from '@lfk/server/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Home, PASSWORD, tempHome } from './harness.ts';

const README = join(import.meta.dirname, '../../../README.md');

/** The shell lines of the section's first `sh` block: continuations joined, comments dropped. */
async function shortestPath(): Promise<string[]> {
  const text = await readFile(README, 'utf8');
  const section = text.slice(text.indexOf('## The shortest path'));
  const block = section.slice(section.indexOf('```sh\n') + 6, section.indexOf('\n```', section.indexOf('```sh\n')));
  return block
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

let t: TestServer;
let base: string;
let home: Home;
let cwd: string;
beforeAll(async () => {
  const port = await freePort();
  t = await startTestServer({ PORT: String(port), HOST: '127.0.0.1', LFK_PUBLIC_URL: '' });
  base = (await t.server.listen()).replace(/\/$/, '');
  home = await tempHome({ LFK_BASE_URL: base });
  cwd = await mkdtemp(join(tmpdir(), 'lfk-readme-path-'));
});
afterAll(async () => {
  await t?.close();
  await home?.remove();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

/** Every email the outbox holds has been printed: what `grep` reads is all there will be. */
const outboxPrinted = async () => (await t.count('outbox_emails where sent_at is null')) === 0;

it('works as written: one link to open confirms the account and the form’s address, and keys can be made next', async () => {
  const lines = await shortestPath();
  expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
    'npx lfk signup',
    'npx lfk forms',
    "grep -o 'http[^\"]*/v1/email-verifications/lfv_[0-9A-Za-z]*'",
    'npx lfk submissions',
  ]);
  let formId = '';
  for (const line of lines) {
    if (line.startsWith('npx lfk ')) {
      const args = line
        .slice('npx lfk '.length)
        .replaceAll('form_…', formId)
        .split(/\s+/)
        .filter((arg) => arg !== '--follow');
      const signup = args[0] === 'signup';
      if (args[0] === 'submissions') {
        const sent = await fetch(`${base}/v1/forms/${formId}/submissions`, {
          method: 'POST',
          headers: { origin: 'https://example.com', 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: 'email=grace%40example.org&message=Hi+from+a+form',
        });
        expect(sent.status).toBe(201);
      }
      const ran = await home.lfk(signup ? [...args, '--password-stdin'] : args, signup ? { input: PASSWORD } : {});
      expect(ran.code, `${line}\n${ran.stderr}`).toBe(0);
      if (args[0] === 'forms') formId = /form_[0-9A-Za-z]+/.exec(ran.stdout)![0];
      if (args[0] === 'submissions') expect(ran.stdout).toContain('grace@example.org');
      continue;
    }
    // The grep line: over the server's log so far, once every queued email is printed.
    await until('the outbox printed every email', outboxPrinted);
    await writeFile(join(cwd, 'lfk.log'), `${t.logs.join('\n')}\n`);
    const { stdout } = await promisify(execFile)('bash', ['-c', line], { cwd });
    const link = stdout.trim();
    expect(link).toMatch(/^http:\/\/localhost:\d+\/v1\/email-verifications\/lfv_\w+$/);
    // Open it, press "Verify" (the page's button posts to the same address).
    expect((await fetch(link)).status).toBe(200);
    expect((await fetch(link, { method: 'POST' })).status).toBe(200);
  }

  // The link confirmed the account and, with it, the form's address: submissions are emailed, and
  // the owner may make a key, the README's next step.
  const form = await home.lfk(['forms', 'get', formId, '--json']);
  expect(form.json).toMatchObject({ notify_emails: ['you@example.com'], verified_notify_emails: ['you@example.com'] });
  const key = await home.lfk(['keys', 'create', '--name', 'my-agent', '--json']);
  expect(key.code, key.stderr).toBe(0);
  expect(key.json.key).toMatch(/^lfk_/);
});
