/**
 * Every curl example in the README and then in docs/reference/api.md, pasted as a reader would:
 * each `sh` block that talks to the API with curl runs, statement by statement, in bash against a
 * real server, the blocks one after another as in one terminal (the reference's walkthroughs go on
 * where the README stops). A placeholder the page tells the reader to fill in is filled the
 * way it says: `S=lfs_…  # "session_token"` from the last answer; `lfv_…` from the email printed
 * to the server's output; `wh_…`, `sub_…` from the newest such id an answer held. An answer that is
 * an error fails the test unless the page says, in the comments above it, that this error comes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer, until } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Read in this order, as one terminal session. */
const SOURCES = ['README.md', 'docs/reference/api.md'];

interface Statement {
  text: string;
  /** The comment lines above it since the last command, and its own trailing comment: what the page says of it. */
  said: string;
}

/** The `sh` blocks that use curl against the API (the CLI's are the CLI suites'), each under `file#heading`. */
function curlBlocks(): { heading: string; code: string }[] {
  const blocks: { heading: string; code: string }[] = [];
  for (const file of SOURCES) {
    let heading = '';
    const lines = readFileSync(new URL(`../../../../${file}`, import.meta.url), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.startsWith('## ')) heading = `${file}#${lines[i]!.slice(3)}`;
      if (lines[i] !== '```sh') continue;
      const end = lines.indexOf('```', i + 1);
      const code = lines.slice(i + 1, end).join('\n');
      if (/\bcurl\b/.test(code) && !/\bnpx\b|\bnpm\b/.test(code)) blocks.push({ heading, code });
      i = end;
    }
  }
  return blocks;
}

/** Splits a block into shell statements: lines joined by a trailing backslash or an open quote. */
function statements(code: string): Statement[] {
  const found: Statement[] = [];
  let comments: string[] = [];
  let lastWasComment = false;
  let current = '';
  let quote: string | null = null;
  for (const line of code.split('\n')) {
    if (!current && line.trim().startsWith('#')) {
      if (!lastWasComment) comments = [];
      comments.push(line.trim());
      lastWasComment = true;
      continue;
    }
    if (!current && !line.trim()) continue;
    lastWasComment = false;
    current += (current ? '\n' : '') + line;
    let trailing = '';
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quote === null) {
        if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
          trailing = line.slice(i);
          break;
        }
        if (c === '\\') i++;
        else if (c === "'" || c === '"') quote = c;
      } else if (quote === '"' && c === '\\') i++;
      else if (c === quote) quote = null;
    }
    if (trailing) comments = [...comments, trailing];
    if (quote === null && !line.trimEnd().endsWith('\\')) {
      found.push({ text: current, said: comments.join('\n') });
      current = '';
      if (trailing) comments = comments.slice(0, -1);
    }
  }
  return found;
}

/** What `path` (`workspace.id`, `data.0.id`) names in `value`. */
function pick(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((at, key) => (at === null || typeof at !== 'object' ? undefined : (at as Record<string, unknown>)[key]), value);
}

describe('the README, pasted', () => {
  let t: TestServer;
  let base: string;
  let cwd: string;
  beforeAll(async () => {
    t = await startTestServer({ PORT: '0', HOST: '127.0.0.1' });
    base = (await t.server.listen()).replace(/\/$/, '');
    cwd = mkdtempSync(join(tmpdir(), 'lfk-readme-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('runs every curl example as written, each answer what the README says it is', async () => {
    const blocks = curlBlocks();
    expect(blocks.map((b) => b.heading)).toEqual([
      'README.md#The shortest path: a form on your site in five commands',
      'README.md#Keys: for agents and server-side code',
      'docs/reference/api.md#A first session with curl',
      'docs/reference/api.md#Forms, from nothing to submissions',
      'docs/reference/api.md#Webhooks: submissions sent to your own systems',
      'docs/reference/api.md#The inbox: spam kept out, forms closed, data deleted on time, submissions exported',
      'docs/reference/api.md#Files',
    ]);
    const vars: Record<string, string> = {};
    /** The newest id or token seen, by prefix (`wh_`, `sub_`). */
    const newest = new Map<string, string>();
    let lastJson: unknown;
    // Asynchronously: the server answering curl runs in this process.
    const bash = (script: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn('bash', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...vars } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    const remember = (value: unknown) => {
      if (typeof value === 'string') {
        const prefix = /^([a-z]{2,5}_)[0-9A-Za-z]{10,}$/.exec(value)?.[1];
        if (prefix) newest.set(prefix, value);
      } else if (value && typeof value === 'object') {
        for (const inner of Object.values(value)) remember(inner);
      }
    };
    // An emailed link works once, so each command that follows one waits for a link not followed
    // yet: the email is sent by the outbox's worker, which may print it after the command before
    // has been answered (on PostgreSQL, often).
    const followed = new Set<string>();
    const newestLink = (prefix: string) => {
      let token: string | undefined;
      for (const line of t.logs) for (const match of line.matchAll(new RegExp(`\\b${prefix}[0-9A-Za-z]{20,}`, 'g'))) token = match[0];
      return token !== undefined && !followed.has(token) ? token : undefined;
    };

    let ran = 0;
    for (const block of blocks) {
      for (const { text, said } of statements(block.code)) {
        const where = `${block.heading}: ${text}`;
        const assignment = /^([A-Z][A-Z0-9_]*)=(\S*)/.exec(text);
        if (assignment) {
          const [, name, value] = assignment as unknown as [string, string, string];
          if (name === 'B') {
            vars.B = base;
          } else if (value.includes('…')) {
            // The field to take is named on the line: `S=lfs_…   # "session_token" from the answer`.
            const path = /#[^"]*"([^"]+)"/.exec(text)?.[1];
            expect(path, `${where}: which field to take`).toBeDefined();
            const picked = pick(lastJson, path!);
            expect(typeof picked, `${where}: ${JSON.stringify(lastJson)?.slice(0, 300)}`).toBe('string');
            expect(picked as string, where).toMatch(new RegExp(`^${value.split('…')[0]}`));
            vars[name] = picked as string;
          } else {
            const evaluated = await bash(`${text}\nprintf %s "$${name}"`);
            expect(evaluated.status, `${where}: ${evaluated.stderr}`).toBe(0);
            vars[name] = evaluated.stdout;
          }
          continue;
        }
        // Placeholders in a command: an emailed link's token, else the newest id of its kind.
        const link = text.includes('lfv_…') ? await until(`${where}: a link emailed and not followed yet`, () => newestLink('lfv_')) : undefined;
        if (link) followed.add(link);
        const filled = text.replace(/\b([a-z]{2,5}_)…/g, (_all, prefix: string) => {
          const value = prefix === 'lfv_' ? link : newest.get(prefix);
          expect(value, `${where}: nothing seen to fill ${prefix}… with`).toBeDefined();
          return value!;
        });
        const run = await bash(filled);
        ran++;
        expect(run.status, `${where}: ${run.stderr}`).toBe(0);
        let status: number | null = null;
        let body = run.stdout;
        if (/^HTTP\/[\d.]+ \d{3}/.test(body)) {
          status = Number(body.split(' ')[1]);
          body = body.slice(body.indexOf('\r\n\r\n') + 4);
        }
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const code = (json as { error?: { code?: string } } | undefined)?.error?.code;
        if (code !== undefined || (status !== null && status >= 400)) {
          // An error the page says comes: named in the comments above the command, or on its line.
          expect(said, `${where}: answered ${status ?? ''} ${body.slice(0, 300)}`).toContain(code ?? String(status));
          continue;
        }
        if (json !== undefined) {
          lastJson = json;
          remember(json);
        }
      }
    }
    expect(ran).toBeGreaterThan(25);
  });
});
