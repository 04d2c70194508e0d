import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfig, writeConfig } from '../src/config/config-file.ts';
import { serverKey } from '../src/config/server-key.ts';
import { loadSettings, normalizeBaseUrl } from '../src/config/settings.ts';
import { CliError } from '../src/errors.ts';
import { parseFieldShorthand } from '../src/input/fields.ts';
import { createStyle, displayWidth } from '../src/output/style.ts';
import { relativeTime } from '../src/output/relative-time.ts';
import { renderRows, renderTable, truncate } from '../src/output/table.ts';

// The CLI's pure pieces on their own; what talks to a server runs whole commands (test/harness.ts).

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lfk-cli-modules-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('config file', () => {
  it('is written with mode 0600 in a 0700 directory, leaving no temporary file behind', async () => {
    const path = join(dir, 'lfk', 'config.json');
    await writeConfig(path, { base_url: 'http://a.test', servers: { 'http://a.test': { session_token: 'lfs_x', workspace_id: 'ws_1' } } });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'lfk'))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(dir, 'lfk'))).toEqual(['config.json']);
    expect(await readConfig(path)).toEqual({ base_url: 'http://a.test', servers: { 'http://a.test': { session_token: 'lfs_x', workspace_id: 'ws_1' } } });
  });

  it('replaces a looser existing file with a 0600 one', async () => {
    const path = join(dir, 'config.json');
    await writeFile(path, '{}', { mode: 0o644 });
    await writeConfig(path, { servers: {} });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('reads a missing file as empty, and ignores entries of the wrong shape', async () => {
    expect(await readConfig(join(dir, 'absent.json'))).toEqual({ servers: {} });
    const path = join(dir, 'odd.json');
    await writeFile(path, JSON.stringify({ base_url: 7, servers: { 'http://a.test': { session_token: 5, user_email: 'a@b.c' }, x: 'no' } }));
    expect(await readConfig(path)).toEqual({ servers: { 'http://a.test': { user_email: 'a@b.c' } } });
  });

  it('refuses a file that is not JSON, naming it', async () => {
    const path = join(dir, 'broken.json');
    await writeFile(path, '{not json');
    await expect(readConfig(path)).rejects.toMatchObject({ code: 'config_invalid', message: expect.stringContaining(path) });
  });

  it('concurrent writers leave one whole file, never a mix', async () => {
    const path = join(dir, 'config.json');
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeConfig(path, { servers: { [`http://s${i}.test`]: { workspace_id: `ws_${i}` } } })));
    const parsed = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(parsed.servers)).toHaveLength(1);
    expect(await readdir(dir)).toEqual(['config.json']);
  });
});

describe('settings', () => {
  const envFor = (extra: Record<string, string> = {}) => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), ...extra });

  it('takes flags over environment over config over the default', async () => {
    const env = envFor();
    expect((await loadSettings({}, env)).baseUrl).toBe('http://127.0.0.1:3000');
    await writeConfig(join(dir, 'xdg', 'lfk', 'config.json'), { base_url: 'http://config.test', servers: {} });
    expect(await loadSettings({}, env)).toMatchObject({ baseUrl: 'http://config.test', baseUrlSource: 'config' });
    expect(await loadSettings({}, envFor({ LFK_BASE_URL: 'http://env.test/' }))).toMatchObject({ baseUrl: 'http://env.test', baseUrlSource: 'env' });
    expect(await loadSettings({ baseUrl: 'https://flag.test' }, envFor({ LFK_BASE_URL: 'http://env.test' }))).toMatchObject({
      baseUrl: 'https://flag.test',
      baseUrlSource: 'flag',
    });
    const both = await loadSettings({ apiKey: 'lfk_flag', workspace: 'ws_flag' }, envFor({ LFK_API_KEY: 'lfk_env', LFK_WORKSPACE: 'ws_env' }));
    expect(both.apiKey).toBe('lfk_flag');
    expect(both.workspace).toEqual({ id: 'ws_flag', source: 'flag' });
    const fromEnv = await loadSettings({}, envFor({ LFK_API_KEY: 'lfk_env', LFK_WORKSPACE: 'ws_env', LFK_TIMEOUT: '2.5' }));
    expect(fromEnv).toMatchObject({ apiKey: 'lfk_env', workspace: { id: 'ws_env', source: 'env' }, timeoutMs: 2500 });
  });

  it('uses ~/.config when XDG_CONFIG_HOME is unset', async () => {
    await writeConfig(join(dir, '.config', 'lfk', 'config.json'), { base_url: 'http://home.test', servers: {} });
    expect((await loadSettings({}, { HOME: dir })).baseUrl).toBe('http://home.test');
  });

  it('refuses base URLs that are not plain http(s) addresses, as usage errors', async () => {
    for (const bad of ['ftp://x.test', 'not a url', 'http://user:pw@x.test', 'http://x.test/?q=1', 'http://x.test/#f']) {
      expect(() => normalizeBaseUrl(bad, '--base-url')).toThrow(CliError);
      try {
        normalizeBaseUrl(bad, '--base-url');
      } catch (error) {
        expect((error as CliError).exitCode).toBe(2);
      }
    }
    expect(normalizeBaseUrl('https://x.test/lfk/', '--base-url')).toBe('https://x.test/lfk');
  });

  it('refuses a timeout that is not a positive number of seconds', async () => {
    for (const timeout of ['0', '-1', 'abc', '1e3', '3601']) {
      await expect(loadSettings({ timeout }, envFor())).rejects.toMatchObject({ code: 'invalid_timeout', exitCode: 2 });
    }
  });
});

describe('server keys', () => {
  it('read every loopback name as 127.0.0.1, keeping scheme, port and path', () => {
    for (const url of ['http://localhost:3000', 'http://LocalHost:3000/', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://127.1.2.3:3000']) {
      expect(serverKey(url), url).toBe('http://127.0.0.1:3000');
    }
    expect(serverKey('https://localhost:3000')).toBe('https://127.0.0.1:3000');
    expect(serverKey('http://localhost:3001')).toBe('http://127.0.0.1:3001');
    expect(serverKey('https://Forms.Example.com:443/lfk/')).toBe('https://forms.example.com/lfk');
    expect(serverKey('http://localhost.example.com:3000')).toBe('http://localhost.example.com:3000');
  });

  it('an older config file keyed by localhost is read under the same key, a session beating none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lfk-keys-'));
    try {
      const path = join(dir, 'config.json');
      await writeFile(
        path,
        JSON.stringify({
          servers: {
            'http://127.0.0.1:3000': { user_email: 'a@example.com' },
            'http://localhost:3000/': { session_token: 'lfs_x', user_email: 'a@example.com' },
          },
        }),
      );
      const config = await readConfig(path);
      expect(config.servers).toEqual({ 'http://127.0.0.1:3000': { session_token: 'lfs_x', user_email: 'a@example.com' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('field shorthand', () => {
  it('reads name:type[:required] and select=a,b', () => {
    expect(parseFieldShorthand('email:email:required')).toEqual({ name: 'email', type: 'email', required: true });
    expect(parseFieldShorthand('age:number')).toEqual({ name: 'age', type: 'number', required: false });
    expect(parseFieldShorthand('plan:select=free, pro:required')).toEqual({
      name: 'plan',
      type: 'select',
      required: true,
      options: ['free', 'pro'],
    });
  });

  it('reads a file field: file=types, then :required, :multiple[=N] and :max=<size> in any order', () => {
    expect(parseFieldShorthand('cv:file')).toEqual({ name: 'cv', type: 'file', required: false });
    expect(parseFieldShorthand('cv:file=application/pdf, image/*:required:max=5MiB')).toEqual({
      name: 'cv',
      type: 'file',
      required: true,
      accept: ['application/pdf', 'image/*'],
      max_size: 5 * 1024 * 1024,
    });
    expect(parseFieldShorthand('photos:file=image/*:max=500KB:multiple=4')).toEqual({
      name: 'photos',
      type: 'file',
      required: false,
      accept: ['image/*'],
      max_size: 500_000,
      multiple: true,
      max_files: 4,
    });
    expect(parseFieldShorthand('docs:file:multiple:max=1048576')).toMatchObject({ multiple: true, max_size: 1_048_576 });
    for (const bad of [
      'a:text:multiple',
      'a:text:max=1MB',
      'a:file:max=big',
      'a:file:max=5TB',
      'a:file:multiple=many',
      'a:file:required:required',
      'a:file:max',
    ]) {
      expect(() => parseFieldShorthand(bad), bad).toThrow(expect.objectContaining({ code: 'invalid_field', exitCode: 2 }));
    }
  });

  it('names the flag and the known types when a type is unknown', () => {
    expect(() => parseFieldShorthand('foo:bogus')).toThrow(
      expect.objectContaining({
        code: 'invalid_field',
        message: '--field "foo:bogus": "bogus" is not a field type.',
        hint: expect.stringContaining('text, textarea, email, number, url, tel, date, checkbox, select'),
      }),
    );
  });

  it('refuses anything else as a usage error', () => {
    for (const bad of ['email', ':text', 'a:', 'a:text:optional', 'a:text:required:x', 'foo:bogus', 'a:Text', 'a:select']) {
      expect(() => parseFieldShorthand(bad)).toThrow(expect.objectContaining({ code: 'invalid_field', exitCode: 2 }));
    }
  });
});

describe('tables', () => {
  const plain = createStyle(false);
  const wide = { width: 200, now: Date.now() };

  it('aligns columns by what the terminal shows, wide characters included', () => {
    const rows = [
      { id: 'key_1', name: '日本語' },
      { id: 'key_22', name: 'ascii' },
    ];
    const lines = renderTable(
      [
        { header: 'NAME', value: (r: (typeof rows)[number]) => r.name },
        { header: 'ID', value: (r: (typeof rows)[number]) => r.id },
      ],
      rows,
      plain,
      wide,
    ).split('\n');
    expect(lines).toEqual(['NAME    ID', '日本語  key_1', 'ascii   key_22']);
    expect(displayWidth('日本語')).toBe(6);
  });

  it('keeps each row on one line whatever the text holds', () => {
    const out = renderTable([{ header: 'NAME', value: (r: { name: string }) => r.name }], [{ name: 'two\nlines\tand tab' }], plain, wide);
    expect(out.split('\n')).toEqual(['NAME', 'two lines and tab']);
    expect(renderRows([{ header: 'NAME', value: (r: { name: string }) => r.name }], [{ name: 'two\nlines\tand tab' }], false)).toBe('two lines and tab');
  });

  type Key = { id: string; name: string; status: string; created_at: string };
  const keyColumns = [
    { header: 'ID', value: (k: Key) => k.id },
    { header: 'NAME', value: (k: Key) => k.name, shrink: true },
    { header: 'STATUS', value: (k: Key) => k.status },
    { header: 'CREATED', value: (k: Key) => k.created_at, time: true, optional: true },
  ];
  const now = Date.parse('2026-11-22T12:00:00Z');
  const keys: Key[] = [
    { id: 'key_01jd8m5y7q6v0s9x3c2b1a0zzz', name: 'the deploy bot of the marketing website', status: 'active', created_at: '2026-11-22T11:58:00Z' },
    { id: 'key_01jd8m5y7q6v0s9x3c2b1a0yyy', name: 'ci', status: 'revoked', created_at: '2026-11-19T12:00:00Z' },
  ];

  it('fits 80 columns: free text is cut with an ellipsis, ids are never cut, times read as people say them', () => {
    const lines = renderTable(keyColumns, keys, plain, { width: 80, now }).split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+CREATED$/);
    expect(lines[1]).toMatch(/^key_01jd8m5y7q6v0s9x3c2b1a0zzz {2}the deploy bot.*… {2}active {3}2 minutes ago$/);
    expect(lines[2]).toMatch(/^key_01jd8m5y7q6v0s9x3c2b1a0yyy {2}ci\s+revoked {2}3 days ago$/);
  });

  it('fits 60 columns by leaving out an optional column rather than breaking words', () => {
    const lines = renderTable(keyColumns, keys, plain, { width: 60, now }).split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS$/);
    expect(lines[1]).toMatch(/^key_01jd8m5y7q6v0s9x3c2b1a0zzz {2}the deploy bot.*… {2}active$/);
    expect(lines[2]).toMatch(/^key_01jd8m5y7q6v0s9x3c2b1a0yyy {2}ci\s+revoked$/);
  });

  it('through a pipe: tab-separated rows under their column names (none with --no-headers), nothing cut, times as given', () => {
    const rows = [
      'key_01jd8m5y7q6v0s9x3c2b1a0zzz\tthe deploy bot of the marketing website\tactive\t2026-11-22T11:58:00Z',
      'key_01jd8m5y7q6v0s9x3c2b1a0yyy\tci\trevoked\t2026-11-19T12:00:00Z',
    ];
    expect(renderRows(keyColumns, keys, true).split('\n')).toEqual(['ID\tNAME\tSTATUS\tCREATED', ...rows]);
    expect(renderRows(keyColumns, keys, false).split('\n')).toEqual(rows);
  });

  it('says how long ago, or how soon, in words', () => {
    expect(relativeTime('2026-11-22T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-11-22T11:00:00Z', now)).toBe('1 hour ago');
    expect(relativeTime('2026-11-29T12:00:00Z', now)).toBe('in 1 week');
    expect(relativeTime('2025-11-01T12:00:00Z', now)).toBe('1 year ago');
    expect(relativeTime('never', now)).toBe('never');
    // The same words as Intl's English, from seconds to thousands of years, both ways.
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    const units: [Intl.RelativeTimeFormatUnit, number][] = [
      ['year', 31_536_000],
      ['month', 2_592_000],
      ['week', 604_800],
      ['day', 86_400],
      ['hour', 3600],
      ['minute', 60],
      ['second', 1],
    ];
    for (const offset of [45, 59, 60, 119, 3599, 3600, 86_399, 86_400, 604_800, 2_592_000, 31_535_999, 31_536_000, 63_072_000, 31_536_000_000]) {
      for (const sign of [-1, 1]) {
        const [unit, size] = units.find(([, s]) => offset >= s)!;
        const expected = intl.format(sign * Math.trunc(offset / size), unit);
        expect(relativeTime(new Date(now + sign * offset * 1000).toISOString(), now)).toBe(expected);
      }
    }
    expect(truncate('日本語のテキスト', 7)).toBe('日本語…');
  });

  it('colours only when asked to', () => {
    expect(createStyle(false).red('x')).toBe('x');
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(displayWidth(createStyle(true).bold('abc'))).toBe(3);
  });
});
